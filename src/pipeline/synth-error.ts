/** Input that cannot be synthesized (exit 1 with its message). A leaf module, so the render workers can throw it too. */
export class SynthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SynthError';
  }
}

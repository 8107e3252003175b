/**
 * A cloud config the transform cannot accept. The message is the operator's
 * wording (where it has one) followed by what the user must change.
 */
export class CloudConfigError extends Error {
  /** 1-based line in the cloud config, when the problem is on one line. */
  public readonly line?: number;

  constructor(message: string, line?: number) {
    super(message);
    this.name = 'CloudConfigError';
    this.line = line;
  }
}

/** What a transform returns: the config to render and the warnings to print. */
export interface TransformResult {
  /** The transformed `cloud.conf`. */
  readonly config: string;
  /** Each dropped or overridden key, in the order met. */
  readonly warnings: readonly string[];
}

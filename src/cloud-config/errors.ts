/** What a transform returns: the config to render and the warnings to print. */
export interface TransformResult {
  /** The transformed `cloud.conf`. */
  readonly config: string;
  /** Each dropped or overridden key, in the order met. */
  readonly warnings: readonly string[];
}

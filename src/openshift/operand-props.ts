import { ProxySettings } from './pod-conventions';
import { ResolvedTls } from '../spec/tls';

/**
 * What every platform's operands take from the cluster, besides their images
 * and platform inputs.
 */
export interface OperandProps {
  /** The transformed `cloud.conf`. */
  readonly cloudConf: string;
  /**
   * Other keys of `cloud-conf` passed through from the user ConfigMap (e.g. Azure Stack Hub `endpoints`).
   *
   * @default - none
   */
  readonly cloudConfExtraData?: Readonly<Record<string, string>>;
  /**
   * Single-replica control plane: one replica and no PodDisruptionBudget.
   *
   * @default false
   */
  readonly singleReplica?: boolean;
  /**
   * Proxy settings appended as env to every container (not init containers).
   *
   * @default - no proxy
   */
  readonly proxy?: ProxySettings;
  /**
   * TLS settings of the serving endpoint.
   *
   * @default - the Intermediate profile
   */
  readonly tls?: ResolvedTls;
}

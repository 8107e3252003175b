import { Construct } from 'constructs';
import { MachineConfig } from '../../../imports/machineconfigs-machineconfiguration.openshift.io';

/** Properties for `LeaderMigrationMachineConfig`. */
export interface LeaderMigrationMachineConfigProps {
  /** MachineConfig name. */
  readonly name: string;
  /** Absolute path of the file on the control-plane hosts. */
  readonly path: string;
  /** The file content. */
  readonly content: string;
}

/**
 * Writes the kube-controller-manager's leader-migration file on every
 * control-plane host (role `master`), as an Ignition 3.2 file. The
 * machine-config-operator rolls it out node by node.
 */
export class LeaderMigrationMachineConfig extends Construct {
  /** The MachineConfig object. */
  public readonly apiObject: MachineConfig;

  constructor(scope: Construct, id: string, props: LeaderMigrationMachineConfigProps) {
    super(scope, id);
    if (!props.path.startsWith('/')) {
      throw new Error(`'path' must be absolute, got ${JSON.stringify(props.path)}`);
    }
    this.apiObject = new MachineConfig(this, 'Resource', {
      metadata: { name: props.name, labels: { 'machineconfiguration.openshift.io/role': 'master' } },
      spec: {
        config: {
          ignition: { version: '3.2.0' },
          storage: {
            files: [
              {
                path: props.path,
                mode: 0o644,
                overwrite: true,
                contents: { source: `data:text/plain;charset=utf-8,${encodeURIComponent(props.content)}` },
              },
            ],
          },
        },
      },
    });
  }
}

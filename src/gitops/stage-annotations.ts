import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { PRUNE_PROTECTED_KINDS, PRUNE_PROTECTION } from './prune-protection';
import { SYNC_WAVE_ANNOTATION, stageOf } from './stages';

// The protection is pure data, read also where no construct is loaded (the OpenShift handover).
export { PRUNE_PROTECTED_KINDS, PRUNE_PROTECTION } from './prune-protection';

/** Annotates every object below `root` with the sync wave of its stage, and the prune-protected kinds with PRUNE_PROTECTION. */
export function annotateStages(root: Construct): void {
  for (const child of root.node.findAll()) {
    if (child instanceof ApiObject) {
      child.metadata.addAnnotation(SYNC_WAVE_ANNOTATION, String(stageOf(child.apiVersion, child.kind, child.metadata.name).order));
      if (PRUNE_PROTECTED_KINDS.includes(child.kind)) {
        for (const [key, value] of Object.entries(PRUNE_PROTECTION)) {
          child.metadata.addAnnotation(key, value);
        }
      }
    }
  }
}

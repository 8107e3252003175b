import { z } from 'zod';
import { clusterSpecSchema, SPEC_API_VERSION, SPEC_KIND } from './schema';

/** Repository path of the published JSON Schema. */
export const JSON_SCHEMA_PATH = 'schema/cluster-spec.schema.json';

/**
 * The JSON Schema of a cluster spec as users write it (defaults optional),
 * generated from the same zod schema the loader validates with, so the two
 * cannot drift. Editors use it through the yaml-language-server modeline.
 */
export function clusterSpecJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(clusterSpecSchema, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: 'https://ccm-gitops.io/schemas/cluster-spec.schema.json',
    title: `${SPEC_KIND} (${SPEC_API_VERSION})`,
    description: 'One cluster for ccm-gitops: what the cloud-controller-manager operator would read from the cluster.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
  };
}

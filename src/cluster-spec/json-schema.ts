import { z } from 'zod';
import { clusterSpecSchema, SPEC_API_VERSION, SPEC_KIND } from './schema';

/** Repository path of the published JSON Schema of a cluster spec. */
export const JSON_SCHEMA_PATH = 'schema/cluster-spec.schema.json';
/** Repository path of the published JSON Schema of a folder's `defaults.yaml`. */
export const DEFAULTS_JSON_SCHEMA_PATH = 'schema/cluster-defaults.schema.json';
/** `kind` of a defaults file (the loader's DEFAULTS_KIND; defined here so the schema needs no loader). */
export const DEFAULTS_SCHEMA_KIND = 'CloudControllerManagerDefaults';

type JsonSchema = Record<string, unknown>;

/**
 * Drops `required` from an object schema and every object schema under its
 * properties (through unions), but not inside list items: a `defaults.yaml`
 * may provide any field of a mapping, while a list always replaces the
 * inherited one, so a list item is written whole where it is written.
 */
function inheritable(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required') {
      continue;
    }
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, inheritable(v)]));
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = (value as JsonSchema[]).map(inheritable);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function specJsonSchema(): JsonSchema {
  return z.toJSONSchema(clusterSpecSchema, { io: 'input', target: 'draft-2020-12' });
}

/** The JSON Schema of a cluster spec after its defaults are merged: what the loader requires (the spec reference's "required"). */
export function mergedClusterSpecJsonSchema(): JsonSchema {
  return specJsonSchema();
}

/**
 * The JSON Schema of a cluster spec as users write it, generated from the
 * same zod schema the loader validates with, so the two cannot drift. Editors
 * use it through the yaml-language-server modeline. Under `spec` nothing is
 * required: the folders' `defaults.yaml` files may provide any of it, and the
 * loader checks the merged result.
 */
export function clusterSpecJsonSchema(): JsonSchema {
  const schema = specJsonSchema();
  const properties = schema.properties as Record<string, JsonSchema>;
  return {
    $schema: schema.$schema,
    $id: 'https://ccm-gitops.io/schemas/cluster-spec.schema.json',
    title: `${SPEC_KIND} (${SPEC_API_VERSION})`,
    description:
      'One cluster for ccm-gitops: what the cloud-controller-manager operator would read from the cluster. ' +
      'Fields under spec may come from the defaults.yaml files of its folders; the loader checks the merged spec.',
    ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema')),
    properties: { ...properties, spec: inheritable(properties.spec) },
  };
}

/**
 * The JSON Schema of a `defaults.yaml`: the envelope with kind
 * CloudControllerManagerDefaults, `metadata.labels` only, and any subset of a
 * cluster's `spec` (each field as the cluster spec types it).
 */
export function clusterDefaultsJsonSchema(): JsonSchema {
  const schema = specJsonSchema();
  const properties = schema.properties as Record<string, JsonSchema>;
  const metadata = properties.metadata as { properties: Record<string, JsonSchema> };
  return {
    $schema: schema.$schema,
    $id: 'https://ccm-gitops.io/schemas/cluster-defaults.schema.json',
    title: `${DEFAULTS_SCHEMA_KIND} (${SPEC_API_VERSION})`,
    description: 'Defaults merged into every cluster spec in this folder and below it (a deeper defaults.yaml wins, the cluster spec wins over all).',
    type: 'object',
    properties: {
      apiVersion: { type: 'string', const: SPEC_API_VERSION },
      kind: { type: 'string', const: DEFAULTS_SCHEMA_KIND },
      metadata: {
        type: 'object',
        properties: { labels: metadata.properties.labels },
        additionalProperties: false,
      },
      spec: inheritable(properties.spec),
    },
    required: ['apiVersion', 'kind'],
    additionalProperties: false,
  };
}

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type SchemaKindId, schemas } from './generated/schemas.js';

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Options that make ajv check what ckpt's schemas mean: strict, formats asserted, own properties only. */
export const ajvOptions = { strict: true, allErrors: true, ownProperties: true } as const;

/**
 * An ajv (draft 2020-12) instance with every ckpt schema added and formats registered.
 *
 * @example
 * const ajv = createAjv();
 * const validate = ajv.getSchema('https://ckpt.dev/schemas/team/run/1.0.json');
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020(ajvOptions);
  addFormats(ajv);
  for (const schema of Object.values(schemas)) ajv.addSchema(schema as object);
  return ajv;
}

/**
 * A validator for one document kind, compiled at call time (the CLI uses the precompiled ones instead).
 *
 * @example
 * const validate = createValidator('team/task-event');
 * if (!validate(doc)) console.log(validate.errors);
 */
export function createValidator(kind: SchemaKindId): ValidateFunction {
  const id = (schemas[kind] as { $id: string }).$id;
  const validate = createAjv().getSchema(id);
  if (!validate) throw new Error(`No schema for kind ${kind}`);
  return validate;
}

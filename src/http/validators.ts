import { AjvCompiler, type BuildCompilerFromPool, type ValidatorFactory } from '@fastify/ajv-compiler';

// A JSON body arrives typed: the client chose a number, a string or a boolean, so Ajv must not
// convert it ("qty": "1e2" is not 100, true is not 1). Query strings and path parameters are
// text, so they are converted, but an integer there must be written in decimal digits: Ajv alone
// accepts whatever JavaScript's unary + accepts ("0x10", " 1", "1e2", "1.0", "+1" all pass).
// Each schema is compiled once, when its route is registered; nothing here runs per request
// beyond the compiled function and, for schemas with integer parameters, one regular expression
// per integer value sent.

// What Fastify passes and expects at run time (the package's own typings describe Ajv's compile).
interface Route {
  schema: unknown;
  httpPart?: string;
}
type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Compile = (route: Route) => Validate;

const DECIMAL_INTEGER = /^-?[0-9]+$/;

interface Issue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

/** The names of an object schema's properties that are integers. */
function integerProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | null)?.properties;
  if (!properties) return [];
  return Object.keys(properties).filter((name) => properties[name].type === 'integer');
}

function isDecimal(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(isDecimal);
  return typeof value !== 'string' || DECIMAL_INTEGER.test(value);
}

/** Refuses integer parameters not written in decimal digits, before Ajv converts them. */
function decimalIntegersOnly(validate: Validate, schema: unknown): Validate {
  const names = integerProperties(schema);
  if (names.length === 0) return validate;
  const checked = ((data: Record<string, unknown> | null) => {
    const issues: Issue[] = [];
    for (const name of names) {
      if (data && !isDecimal(data[name])) {
        issues.push({
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}/type`,
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be an integer written in decimal digits',
        });
      }
    }
    if (issues.length) {
      checked.errors = issues;
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors;
    return valid;
  }) as Validate;
  return checked;
}

/**
 * The package's typings describe the compile function as Ajv's `compile(schema)`; Fastify calls it
 * with the route definition (`{ schema, httpPart, method, url }`), which is what it reads.
 */
type TypedCompile = ReturnType<BuildCompilerFromPool>;
const fromTyped = (compile: TypedCompile) => compile as Compile;
const toTyped = (compile: Compile) => compile as TypedCompile;

/** Fastify's validator builder: bodies without type coercion, query, params and headers with it. */
export function typedBodies(): ValidatorFactory {
  const build = AjvCompiler();
  const factory: BuildCompilerFromPool = (externalSchemas, options) => {
    // Fastify's options are Ajv's (never JTD's: no route here asks for JTD).
    const ajvOptions = options?.mode === 'JTD' ? {} : options?.customOptions;
    const withCoercion = (coerceTypes: false | 'array') =>
      fromTyped(
        build(externalSchemas, {
          onCreate: options?.onCreate,
          plugins: options?.plugins,
          customOptions: { ...ajvOptions, coerceTypes },
        }),
      );
    const strict = withCoercion(false);
    const converting = withCoercion('array');
    return toTyped((route: Route) =>
      route.httpPart === 'body' ? strict(route) : decimalIntegersOnly(converting(route), route.schema),
    );
  };
  return factory;
}

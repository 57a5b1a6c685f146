import { invalidRequest, missingParameter, unknownParameter } from './errors';

/**
 * Stripe's request parameters: form-encoded bodies (and query strings) with bracketed keys
 * (`line_items[0][price]=…`, `expand[]=…`, `metadata[user]=…`), checked as strictly as Stripe checks them:
 * an unknown parameter, a missing required one, or a value of the wrong kind is a 400 naming the parameter.
 */
export type FormNode = string | FormNode[] | { [key: string]: FormNode };
type FormObject = { [key: string]: FormNode };

export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = keySegments(key);
    let node: FormObject = root;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const name = segment === '' ? String(nextIndex(node)) : segment;
      if (last) {
        node[name] = value;
        return;
      }
      const child = node[name];
      if (child === undefined) node[name] = {};
      else if (typeof child === 'string')
        throw invalidRequest(`Invalid object`, undefined, segments.slice(0, index + 1).join('.'));
      node = node[name] as FormObject;
    });
  }
  return toArrays(root) as FormObject;
}

function keySegments(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw invalidRequest(`Invalid parameter name: ${key}`);
  const rest = match[2] ? [...match[2].matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1] ?? '') : [];
  return [match[1] ?? key, ...rest];
}

const nextIndex = (node: FormObject) => Object.keys(node).filter((key) => /^\d+$/.test(key)).length;

/** Objects whose keys are all indexes (`[0]`, `[1]`, or `[]`) become arrays, as Stripe reads them. */
function toArrays(node: FormNode): FormNode {
  if (typeof node === 'string' || Array.isArray(node)) return node;
  const keys = Object.keys(node);
  const converted: FormObject = {};
  for (const key of keys) converted[key] = toArrays(node[key] as FormNode);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => converted[key] as FormNode);
  }
  return converted;
}

// ── The parameter kinds of an endpoint ───────────────────────────────────────────────────────────────

export interface Param<T> {
  readonly optional: boolean;
  read(node: FormNode, path: string): T;
}

type Shape = Record<string, Param<unknown>>;
type Read<S extends Shape> = {
  [K in keyof S as S[K]['optional'] extends true ? never : K]: ReturnType<S[K]['read']>;
} & {
  [K in keyof S as S[K]['optional'] extends true ? K : never]?: ReturnType<S[K]['read']>;
};

const required = <T>(read: (node: FormNode, path: string) => T): Param<T> & { optional: false } => ({
  optional: false,
  read,
});

export function optional<T>(param: Param<T>): Param<T> & { optional: true } {
  return { optional: true, read: param.read };
}

/**
 * An empty value unsets a parameter in Stripe's API; for parameters that cannot be unset it is refused
 * with Stripe's own explanation.
 */
const notEmpty = (value: string, path: string) => {
  if (value === '') {
    throw invalidRequest(
      `You passed an empty string for '${path}'. We assume empty values are an attempt to unset a parameter; however '${path}' cannot be unset. You should remove '${path}' from your request or supply a non-empty value.`,
      'parameter_invalid_empty',
      path,
    );
  }
  return value;
};

const scalar = (node: FormNode, path: string): string => {
  if (typeof node !== 'string') throw invalidRequest(`Invalid ${path}: must be a string`, undefined, path);
  return node;
};

export const string = (max = 5000) =>
  required((node, path) => {
    const value = notEmpty(scalar(node, path), path);
    if (value.length > max)
      throw invalidRequest(`Invalid ${path}: must be at most ${max} characters`, undefined, path);
    return value;
  });

export const integer = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  required((node, path) => {
    const value = notEmpty(scalar(node, path), path);
    if (!/^-?\d+$/.test(value))
      throw invalidRequest(`Invalid integer: ${value}`, 'parameter_invalid_integer', path);
    const number = Number(value);
    if (number < min || number > max) {
      throw invalidRequest(`Invalid ${path}: must be between ${min} and ${max}`, undefined, path);
    }
    return number;
  });

export const boolean = () =>
  required((node, path) => {
    const value = notEmpty(scalar(node, path), path);
    if (value !== 'true' && value !== 'false')
      throw invalidRequest(`Invalid boolean: ${value}`, undefined, path);
    return value === 'true';
  });

export const oneOf = <const V extends readonly string[]>(values: V) =>
  required((node, path): V[number] => {
    const value = notEmpty(scalar(node, path), path);
    if (!values.includes(value)) {
      const list = values.length > 1 ? `${values.slice(0, -1).join(', ')}, or ${values.at(-1)}` : values[0];
      throw invalidRequest(`Invalid ${path}: must be one of ${list}`, undefined, path);
    }
    return value;
  });

/** `metadata[key]=value`: at most 50 keys of 40 characters, values of 500; an empty value removes a key. */
export const metadata = () =>
  required((node, path): Record<string, string> => {
    if (typeof node === 'string') {
      if (node === '') return {};
      throw invalidRequest('Invalid object', undefined, path);
    }
    if (Array.isArray(node)) throw invalidRequest('Invalid object', undefined, path);
    const entries = Object.entries(node);
    if (entries.length > 50) throw invalidRequest('Metadata can have at most 50 keys.', undefined, path);
    const out: Record<string, string> = {};
    for (const [key, value] of entries) {
      if (typeof value !== 'string') throw invalidRequest('Invalid object', undefined, `${path}[${key}]`);
      if (key.length > 40)
        throw invalidRequest(`Metadata keys must be at most 40 characters.`, undefined, path);
      if (value.length > 500)
        throw invalidRequest(`Metadata values must be at most 500 characters.`, undefined, path);
      out[key] = value;
    }
    return out;
  });

export const array = <T>(item: Param<T>, maxItems = 100) =>
  required((node, path): T[] => {
    if (!Array.isArray(node)) throw invalidRequest('Invalid array', undefined, path);
    if (node.length > maxItems)
      throw invalidRequest(`Invalid ${path}: at most ${maxItems} items`, undefined, path);
    return node.map((child, index) => item.read(child, `${path}[${index}]`));
  });

export const object = <S extends Shape>(shape: S) =>
  required((node, path): Read<S> => readObject(shape, node, path));

function readObject<S extends Shape>(shape: S, node: FormNode, path: string | null): Read<S> {
  if (typeof node === 'string' || Array.isArray(node))
    throw invalidRequest('Invalid object', undefined, path ?? undefined);
  const name = (key: string) => (path === null ? key : `${path}[${key}]`);
  for (const key of Object.keys(node)) if (!(key in shape)) throw unknownParameter(name(key));
  const out: Record<string, unknown> = {};
  for (const [key, param] of Object.entries(shape)) {
    const child = node[key];
    if (child === undefined) {
      if (!param.optional) throw missingParameter(name(key));
      continue;
    }
    out[key] = param.read(child, name(key));
  }
  return out as Read<S>;
}

/** Every endpoint also takes `expand[]`: the paths of ids to answer as objects. */
const expandParam = optional(array(string(200), 20));

export type Params<S extends Shape> = Read<S> & { expand?: string[] };

/** Reads an endpoint's parameters: the body of a POST, the query of a GET or DELETE. */
export function readParams<S extends Shape>(shape: S, form: FormObject): Params<S> {
  return readObject({ ...shape, expand: expandParam }, form, null) as Params<S>;
}

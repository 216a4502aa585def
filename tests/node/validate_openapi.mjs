// Validates recorded HTTP exchanges against docs/openapi.yaml (OpenAPI 3.1,
// whose schemas are JSON Schema 2020-12) with Ajv.
//   node validate_openapi.mjs SPEC.yaml EXCHANGES.json
// EXCHANGES: [{name, method, path, status, content_type, body, request?}]
// Prints one JSON line per exchange: {name, ok, errors}; first a line
// {name: "spec", ok, errors} checking that every $ref resolves.
import fs from 'node:fs';
import YAML from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';

const [specPath, exchangesPath] = process.argv.slice(2);
const spec = YAML.parse(fs.readFileSync(specPath, 'utf8'));
const exchanges = JSON.parse(fs.readFileSync(exchangesPath, 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(spec, 'openapi');
const print = (o) => console.log(JSON.stringify(o));

const pointer = (parts) => '#/' + parts.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const resolve = (node) => {
  while (node && node.$ref) {
    const path = node.$ref.replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    node = path.reduce((n, k) => (n ? n[k] : undefined), spec);
  }
  return node;
};

// Every $ref in the document resolves.
const broken = [];
(function walk(node) {
  if (Array.isArray(node)) return node.forEach(walk);
  if (node && typeof node === 'object') {
    if (typeof node.$ref === 'string' && resolve({ $ref: node.$ref }) === undefined) broken.push(node.$ref);
    Object.values(node).forEach(walk);
  }
})(spec);
print({ name: 'spec', ok: spec.openapi.startsWith('3.1') && broken.length === 0, errors: broken });

for (const ex of exchanges) {
  const errors = [];
  // A path with parameters ("/v1/sessions/{id}") matches its template.
  const template = spec.paths?.[ex.path] ? ex.path
    : Object.keys(spec.paths || {}).find((t) => t.includes('{')
      && new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+') + '$').test(ex.path));
  if (template) ex.path = template;
  const op = spec.paths?.[ex.path]?.[ex.method.toLowerCase()];
  if (!op) {
    print({ name: ex.name, ok: false, errors: [`no operation ${ex.method} ${ex.path}`] });
    continue;
  }
  if (ex.request !== undefined) {
    const parts = ['paths', ex.path, ex.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'];
    const ok = ajv.validate({ $ref: 'openapi' + pointer(parts) }, ex.request);
    if (!ok) errors.push({ request: ajv.errors });
  }
  const status = String(ex.status);
  if (!op.responses[status]) {
    print({ name: ex.name, ok: false, errors: [`status ${status} is not described`] });
    continue;
  }
  const response = resolve(op.responses[status]);
  const type = (ex.content_type || '').split(';')[0].trim();
  if (!response.content?.[type]) {
    errors.push(`content type ${type} is not described for ${status}`);
  } else if (type === 'application/json') {
    let body;
    try { body = JSON.parse(ex.body); } catch (e) { errors.push('body is not JSON'); }
    if (body !== undefined) {
      // Validate through the spec so relative $refs resolve.
      const ref = op.responses[status].$ref
        ? op.responses[status].$ref.slice(1).split('/').slice(1).concat(['content', type, 'schema'])
        : ['paths', ex.path, ex.method.toLowerCase(), 'responses', status, 'content', type, 'schema'];
      if (!ajv.validate({ $ref: 'openapi' + pointer(ref) }, body)) errors.push(...ajv.errors);
    }
  } else {
    const schema = response.content[type].schema || {};
    if (schema.pattern && !new RegExp(schema.pattern).test(ex.body)) errors.push(`body does not match ${schema.pattern}`);
  }
  for (const [name, h] of Object.entries(response.headers || {})) {
    if (ex.headers && ex.headers[name.toLowerCase()] === undefined && (status === '401' || status === '429'))
      errors.push(`header ${name} missing`);
  }
  print({ name: ex.name, ok: errors.length === 0, errors });
}

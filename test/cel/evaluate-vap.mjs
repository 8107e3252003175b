// Evaluates ValidatingAdmissionPolicies the way the API server does, with a
// real CEL engine (@marcbachmann/cel-js), for test/admission-policies.test.ts.
// ESM only (the engine ships no CommonJS), so jest runs it as a child process:
// stdin {policies, cases} -> stdout [{allowed, denials}].
//
// Kubernetes semantics followed (k8s.io/apiserver
// pkg/admission/plugin/policy/validating): a request is checked only when
// matchConstraints matches its operation and resource and every matchCondition
// is true; each validation that is false denies with its messageExpression,
// else its message, else "failed expression: <expression>"; an expression
// that errors applies failurePolicy (default Fail: deny). Variables are
// composed lazily: `variables.x` stands for x's expression, so errors absorb
// as in CEL's commutative && and ||.
import { Environment } from '@marcbachmann/cel-js'

const env = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false })
// cel-go type-checks optional == null (opaque types are legacy-nullable, google/cel-go checker/types.go
// isLegacyNullable) and an optional never equals null at run time (common/types/optional.go Equal).
env.registerOperator('optional<dyn> == null', () => false)

function inline(expression, variables) {
  let out = expression
  for (let i = 0; i < 10 && /variables\.[A-Za-z_][A-Za-z0-9_]*/.test(out); i++) {
    out = out.replace(/variables\.([A-Za-z_][A-Za-z0-9_]*)/g, (m, name) => {
      if (!(name in variables)) throw new Error(`undefined variable ${name}`)
      return `(${variables[name]})`
    })
  }
  return out
}

function evaluate(expression, variables, input) {
  try {
    return { value: env.evaluate(inline(expression, variables), input) }
  } catch (e) {
    return { error: String(e.message).split('\n')[0] }
  }
}

function check(policy, c) {
  const spec = policy.spec
  const rules = spec.matchConstraints?.resourceRules ?? []
  if (!rules.some((r) => r.operations.includes(c.operation) && r.resources.includes(c.resource))) return { allowed: true, denials: [], matched: false }
  const variables = Object.fromEntries((spec.variables ?? []).map((v) => [v.name, v.expression]))
  const input = {
    object: c.object ?? null,
    oldObject: c.oldObject ?? null,
    request: { operation: c.operation, userInfo: c.userInfo ?? { username: 'system:admin' } },
    params: null,
  }
  const failClosed = (spec.failurePolicy ?? 'Fail') === 'Fail'
  const denials = []
  for (const m of spec.matchConditions ?? []) {
    const r = evaluate(m.expression, {}, input)
    if (r.error !== undefined) {
      if (failClosed) return { allowed: false, denials: [`matchCondition ${m.name} error: ${r.error}`], matched: true }
      return { allowed: true, denials: [], matched: false }
    }
    if (r.value !== true) return { allowed: true, denials: [], matched: false }
  }
  for (const v of spec.validations ?? []) {
    const r = evaluate(v.expression, variables, input)
    if (r.error !== undefined) {
      if (failClosed) denials.push(`expression '${v.expression}' resulted in error: ${r.error}`)
      continue
    }
    if (r.value === true) continue
    let message = v.message ?? `failed expression: ${v.expression}`
    if (v.messageExpression) {
      const m = evaluate(v.messageExpression, variables, input)
      if (m.error === undefined && typeof m.value === 'string' && m.value.trim() !== '') message = m.value
    }
    denials.push(message)
  }
  return { allowed: denials.length === 0, denials, matched: true }
}

let raw = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => { raw += d })
process.stdin.on('end', () => {
  const { policies, cases } = JSON.parse(raw)
  const byName = new Map(policies.map((p) => [p.metadata.name, p]))
  const results = cases.map((c) => {
    const p = byName.get(c.policy)
    if (!p) return { error: `no policy ${c.policy}` }
    return check(p, c)
  })
  process.stdout.write(JSON.stringify(results))
})

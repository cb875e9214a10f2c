package jsonschema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// maxSteps bounds the subschemas one validation applies, so that a schema
// whose applicators multiply (allOf of references to allOf of …) ends.
const maxSteps = 1 << 22

// maxNesting bounds how many subschemas apply inside one another, so that
// a long chain of references cannot exhaust the stack.
const maxNesting = 10000

// validation is the state of one Validate.
type validation struct {
	steps       int
	nesting     int
	annotations bool
	err         error
}

// Validate checks a value against the schema and returns what it fails,
// nil when it is valid. A failed anyOf or oneOf carries the failures of
// each alternative. Type, const, enum and format are checked first: when
// one fails it is the only failure of that schema at that value. The
// error says the value is not JSON, nests deeper than MaxDepth, or takes
// the schema past its bounds of work.
func (s *Schema) Validate(data json.RawMessage) ([]*Failure, error) {
	inst, err := decode(data)
	if err != nil {
		if errors.As(err, new(tooDeep)) {
			return nil, fmt.Errorf("the value is %w", err)
		}
		return nil, fmt.Errorf("the value is not JSON: %w", err)
	}
	v := &validation{annotations: s.annotations}
	fails, _ := v.eval(s.root, inst, nil)
	if v.err != nil {
		return nil, v.err
	}
	return fails, nil
}

// fail records a failure at path.
func fail(path []string, keyword string, k Kind) *Failure {
	return &Failure{Location: slices.Clone(path), Keyword: keyword, Kind: k}
}

// eval applies schema n to inst at path; the annotations say what it
// evaluated (when some schema needs them).
func (v *validation) eval(n *node, inst *value, path []string) (fails []*Failure, ev *evaluated) {
	if v.err != nil {
		return nil, nil
	}
	if v.steps++; v.steps > maxSteps {
		v.err = fmt.Errorf("the validation stopped after %d steps: the schema applies too many subschemas", maxSteps)
		return nil, nil
	}
	if v.nesting++; v.nesting > maxNesting {
		v.err = fmt.Errorf("the validation stopped: the schema nests more than %d subschemas", maxNesting)
		return nil, nil
	}
	defer func() { v.nesting-- }()
	if n.boolean != nil {
		if *n.boolean {
			return nil, nil
		}
		return []*Failure{fail(path, "false", FalseSchema{})}, nil
	}
	if f := gate(n, inst, path); f != nil {
		return []*Failure{f}, nil
	}
	if v.annotations {
		ev = &evaluated{}
	}
	for _, r := range n.refs {
		v.inPlace(r, inst, path, &fails, ev)
	}
	switch inst.kind {
	case kindObject:
		v.object(n, inst, path, &fails, ev)
	case kindArray:
		v.array(n, inst, path, &fails, ev)
	case kindString:
		scalarString(n, inst, path, &fails)
	case kindNumber:
		scalarNumber(n, inst, path, &fails)
	}
	v.applicators(n, inst, path, &fails, ev)
	if v.annotations {
		v.unevaluated(n, inst, path, &fails, ev)
	}
	return fails, ev
}

// inPlace applies a subschema to the same value, keeping its annotations
// when it passes.
func (v *validation) inPlace(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) bool {
	f, e := v.eval(n, inst, path)
	*fails = append(*fails, f...)
	if len(f) == 0 {
		ev.merge(e)
	}
	return len(f) == 0
}

// gate checks type, const, enum and format, the keywords after whose
// failure the others say nothing useful.
func gate(n *node, inst *value, path []string) *Failure {
	if len(n.types) > 0 {
		got := inst.typeName()
		if !slices.ContainsFunc(n.types, func(t string) bool { return t == got || t == "number" && got == "integer" }) {
			return fail(path, "type", Type{Want: n.types, Got: got})
		}
	}
	if n.constant != nil && inst.key() != n.constant.key {
		return fail(path, "const", Const{Want: n.constant.want})
	}
	if n.enum != nil {
		if _, ok := n.enum.keys[inst.key()]; !ok {
			return fail(path, "enum", Enum{Want: n.enum.want})
		}
	}
	if n.isFormat != nil && inst.kind == kindString && !n.isFormat(inst.text) {
		return fail(path, "format", Format{Want: n.format})
	}
	return nil
}

// applicators applies not, allOf, anyOf, oneOf and if/then/else.
func (v *validation) applicators(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	if n.not != nil {
		if f, _ := v.eval(n.not, inst, path); len(f) == 0 {
			*fails = append(*fails, fail(path, "not", Not{}))
		}
	}
	for _, s := range n.allOf {
		v.inPlace(s, inst, path, fails, ev)
	}
	if len(n.anyOf) > 0 {
		var causes [][]*Failure
		passed := false
		for _, s := range n.anyOf {
			f, e := v.eval(s, inst, path)
			if len(f) == 0 {
				passed = true
				ev.merge(e)
				if ev == nil {
					break
				}
				continue
			}
			causes = append(causes, f)
		}
		if !passed {
			*fails = append(*fails, fail(path, "anyOf", AnyOf{Causes: causes}))
		}
	}
	if len(n.oneOf) > 0 {
		v.oneOf(n, inst, path, fails, ev)
	}
	if n.ifThen != nil {
		f, e := v.eval(n.ifThen, inst, path)
		next := n.els
		if len(f) == 0 {
			ev.merge(e)
			next = n.then
		}
		if next != nil {
			v.inPlace(next, inst, path, fails, ev)
		}
	}
}

// oneOf applies oneOf: exactly one alternative must pass.
func (v *validation) oneOf(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	var causes [][]*Failure
	var matched []int
	var first *evaluated
	for i, s := range n.oneOf {
		f, e := v.eval(s, inst, path)
		if len(f) > 0 {
			causes = append(causes, f)
			continue
		}
		if matched = append(matched, i); len(matched) == 2 {
			break
		}
		first = e
	}
	switch len(matched) {
	case 0:
		*fails = append(*fails, fail(path, "oneOf", OneOf{Causes: causes}))
	case 1:
		ev.merge(first)
	default:
		*fails = append(*fails, fail(path, "oneOf", OneOf{Matched: matched}))
	}
}

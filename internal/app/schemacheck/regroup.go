package schemacheck

import (
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/message"
)

// TooManyItems: the array has more items than its tuple and items allow
// (items or additionalItems false); Allowed is how many it may hold.
type TooManyItems struct {
	Allowed int
	keyword string // "items" or "additionalItems"
}

// UnevaluatedProperties: unevaluatedProperties is false and no keyword
// evaluated Properties.
type UnevaluatedProperties struct{ Properties []string }

// UnevaluatedItems: unevaluatedItems is false and no keyword evaluated the
// items at Indexes (from 0).
type UnevaluatedItems struct{ Indexes []int }

// KeywordPath names the keyword.
func (k *TooManyItems) KeywordPath() []string { return []string{k.keyword} }

// KeywordPath names the keyword.
func (*UnevaluatedProperties) KeywordPath() []string { return []string{"unevaluatedProperties"} }

// KeywordPath names the keyword.
func (*UnevaluatedItems) KeywordPath() []string { return []string{"unevaluatedItems"} }

// LocalizedString is the failure's message.
func (k *TooManyItems) LocalizedString(*message.Printer) string {
	return (&Failure{Kind: k}).Message()
}

// LocalizedString is the failure's message.
func (k *UnevaluatedProperties) LocalizedString(*message.Printer) string {
	return (&Failure{Kind: k}).Message()
}

// LocalizedString is the failure's message.
func (k *UnevaluatedItems) LocalizedString(*message.Printer) string {
	return (&Failure{Kind: k}).Message()
}

// falseKeyword is the keyword whose false schema refused the value at
// schemaURL, when it is one that refuses members of an object or array
// ("items", "additionalItems", "unevaluatedProperties",
// "unevaluatedItems"), or "".
func falseKeyword(schemaURL string) string {
	i := strings.LastIndexByte(schemaURL, '/')
	switch k := schemaURL[i+1:]; k {
	case "items", "additionalItems", "unevaluatedProperties", "unevaluatedItems":
		return k
	}
	return ""
}

// regroup turns the failures of one false schema on each member of an
// object or array into one failure at the object or array, as people read
// them ("unexpected property a, b", "allows at most 1 item"); the library
// reports them one by one.
func regroup(fails []*Failure, inst any) []*Failure {
	out := fails[:0]
	for _, f := range fails {
		for i, c := range f.Causes {
			f.Causes[i] = regroup(c, inst)
		}
		if f.member == "" || len(f.Location) == 0 {
			out = append(out, f)
			continue
		}
		at := f.Location[:len(f.Location)-1]
		name := f.Location[len(f.Location)-1]
		var prev *Failure
		if n := len(out); n > 0 && out[n-1].member == f.member && out[n-1].schema == f.schema && slices.Equal(out[n-1].Location, at) {
			prev = out[n-1]
		} else {
			prev = &Failure{Location: at, member: f.member, schema: f.schema}
			switch f.member {
			case "unevaluatedProperties":
				prev.Kind = &UnevaluatedProperties{}
			case "unevaluatedItems":
				prev.Kind = &UnevaluatedItems{}
			default:
				prev.Kind = &TooManyItems{Allowed: arrayLen(inst, at), keyword: f.member}
			}
			out = append(out, prev)
		}
		switch k := prev.Kind.(type) {
		case *UnevaluatedProperties:
			k.Properties = append(k.Properties, name)
		case *UnevaluatedItems:
			n, _ := strconv.Atoi(name)
			k.Indexes = append(k.Indexes, n)
		case *TooManyItems:
			k.Allowed--
		}
	}
	for _, f := range out {
		switch k := f.Kind.(type) {
		case *UnevaluatedProperties:
			slices.Sort(k.Properties)
		case *UnevaluatedItems:
			slices.Sort(k.Indexes)
		}
	}
	return out
}

// arrayLen is the length of the array at location in v, 0 if there is
// none.
func arrayLen(v any, location []string) int {
	a, _ := valueAt(v, location).([]any)
	return len(a)
}

// valueAt is the value at location in v, nil if there is none.
func valueAt(v any, location []string) any {
	for _, tok := range location {
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

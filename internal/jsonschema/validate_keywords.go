package jsonschema

import (
	"strconv"
	"unicode/utf8"
)

// isFalse reports whether n is the false schema.
func (n *node) isFalse() bool { return n.boolean != nil && !*n.boolean }

// object applies the keywords about objects.
func (v *validation) object(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	add := func(kw string, k Kind) { *fails = append(*fails, fail(path, kw, k)) }
	count := len(inst.members)
	if n.minProperties != nil && count < *n.minProperties {
		add("minProperties", MinProperties{Want: *n.minProperties, Got: count})
	}
	if n.maxProperties != nil && count > *n.maxProperties {
		add("maxProperties", MaxProperties{Want: *n.maxProperties, Got: count})
	}
	if missing := absent(inst, n.required); len(missing) > 0 {
		add("required", Required{Missing: missing})
	}
	for _, d := range n.dependentRequired {
		if inst.lookup(d.property) == nil {
			continue
		}
		if missing := absent(inst, d.required); len(missing) > 0 {
			add(d.keyword, DependentRequired{Property: d.property, Missing: missing})
		}
	}
	var additional []string
	for _, m := range inst.members {
		at := append(path, m.name)
		evaluated := false
		if s, ok := n.propertyIndex[m.name]; ok {
			evaluated = true
			f, _ := v.eval(s, m.val, at)
			*fails = append(*fails, f...)
		}
		for _, p := range n.patternProperties {
			// A pattern Go cannot compile neither constrains nor refuses.
			if p.re == nil || p.re.MatchString(m.name) {
				evaluated = true
			}
			if p.re != nil && p.re.MatchString(m.name) {
				f, _ := v.eval(p.schema, m.val, at)
				*fails = append(*fails, f...)
			}
		}
		if !evaluated && n.additionalProperties != nil {
			evaluated = true
			if n.additionalProperties.isFalse() {
				additional = append(additional, m.name)
			} else {
				f, _ := v.eval(n.additionalProperties, m.val, at)
				*fails = append(*fails, f...)
			}
		}
		if evaluated {
			ev.addProperty(m.name)
		}
	}
	if len(additional) > 0 {
		add("additionalProperties", AdditionalProperties{Properties: additional})
	}
	if n.propertyNames != nil {
		for _, m := range inst.members {
			if f, _ := v.eval(n.propertyNames, &value{kind: kindString, text: m.name}, path); len(f) > 0 {
				add("propertyNames", PropertyNames{Property: m.name})
			}
		}
	}
	for _, d := range n.dependentSchemas {
		if inst.lookup(d.name) != nil {
			v.inPlace(d.schema, inst, path, fails, ev)
		}
	}
}

// absent returns the names the object lacks.
func absent(inst *value, names []string) []string {
	var out []string
	for _, name := range names {
		if inst.lookup(name) == nil {
			out = append(out, name)
		}
	}
	return out
}

// array applies the keywords about arrays.
func (v *validation) array(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	add := func(kw string, k Kind) { *fails = append(*fails, fail(path, kw, k)) }
	count := len(inst.items)
	if n.minItems != nil && count < *n.minItems {
		add("minItems", MinItems{Want: *n.minItems, Got: count})
	}
	if n.maxItems != nil && count > *n.maxItems {
		add("maxItems", MaxItems{Want: *n.maxItems, Got: count})
	}
	if n.uniqueItems {
		if i, j, ok := duplicate(inst.items); ok {
			add("uniqueItems", UniqueItems{Duplicates: [2]int{i, j}})
		}
	}
	for i, s := range n.prefixItems[:min(len(n.prefixItems), count)] {
		f, _ := v.eval(s, inst.items[i], append(path, strconv.Itoa(i)))
		*fails = append(*fails, f...)
	}
	ev.addItems(min(len(n.prefixItems), count))
	if n.items != nil && count > len(n.prefixItems) {
		if n.items.isFalse() {
			add(n.itemsKeyword, AdditionalItems{Allowed: len(n.prefixItems), Got: count})
		} else {
			for i := len(n.prefixItems); i < count; i++ {
				f, _ := v.eval(n.items, inst.items[i], append(path, strconv.Itoa(i)))
				*fails = append(*fails, f...)
			}
		}
		ev.addItems(count)
	}
	if n.contains != nil {
		v.contains(n, inst, path, fails, ev)
	}
}

// contains applies contains, minContains and maxContains.
func (v *validation) contains(n *node, inst *value, path []string, fails *[]*Failure, ev *evaluated) {
	matched := 0
	for i, it := range inst.items {
		if f, _ := v.eval(n.contains, it, append(path, strconv.Itoa(i))); len(f) == 0 {
			matched++
			ev.addItem(i)
		}
	}
	switch {
	case n.minContains != nil && matched < *n.minContains:
		*fails = append(*fails, fail(path, "minContains", MinContains{Want: *n.minContains, Got: matched}))
	case n.minContains == nil && matched == 0:
		*fails = append(*fails, fail(path, "contains", Contains{}))
	}
	if n.maxContains != nil && matched > *n.maxContains {
		*fails = append(*fails, fail(path, "maxContains", MaxContains{Want: *n.maxContains, Got: matched}))
	}
}

// duplicate finds the first item equal to an earlier one.
func duplicate(items []*value) (int, int, bool) {
	seen := make(map[string]int, len(items))
	for j, it := range items {
		k := it.key()
		if i, ok := seen[k]; ok {
			return i, j, true
		}
		seen[k] = j
	}
	return 0, 0, false
}

// scalarString applies the keywords about strings but format.
func scalarString(n *node, inst *value, path []string, fails *[]*Failure) {
	if n.minLength != nil || n.maxLength != nil {
		l := utf8.RuneCountInString(inst.text)
		if n.minLength != nil && l < *n.minLength {
			*fails = append(*fails, fail(path, "minLength", MinLength{Want: *n.minLength, Got: l}))
		}
		if n.maxLength != nil && l > *n.maxLength {
			*fails = append(*fails, fail(path, "maxLength", MaxLength{Want: *n.maxLength, Got: l}))
		}
	}
	if p := n.pattern; p != nil && p.re != nil && !p.re.MatchString(inst.text) {
		*fails = append(*fails, fail(path, "pattern", Pattern{Want: p.src}))
	}
}

// scalarNumber applies the keywords about numbers, exactly.
func scalarNumber(n *node, inst *value, path []string, fails *[]*Failure) {
	x := inst.num
	add := func(kw string, k Kind) { *fails = append(*fails, fail(path, kw, k)) }
	if b := n.minimum; b != nil && x.cmp(b.n) < 0 {
		add("minimum", Minimum{Want: b.rat})
	}
	if b := n.maximum; b != nil && x.cmp(b.n) > 0 {
		add("maximum", Maximum{Want: b.rat})
	}
	if b := n.exclusiveMinimum; b != nil && x.cmp(b.n) <= 0 {
		add("exclusiveMinimum", ExclusiveMinimum{Want: b.rat})
	}
	if b := n.exclusiveMaximum; b != nil && x.cmp(b.n) >= 0 {
		add("exclusiveMaximum", ExclusiveMaximum{Want: b.rat})
	}
	if b := n.multipleOf; b != nil && !x.multipleOf(b.n) {
		add("multipleOf", MultipleOf{Want: b.rat})
	}
}

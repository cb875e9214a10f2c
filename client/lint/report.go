package lint

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// maxPerRule is the most findings one rule keeps about one entry; past it
// the rule's further findings there are counted and reported as one
// "…and N more". A hostile schema of 40,000 untyped properties then holds
// 21 findings, not 40,000.
const maxPerRule = 20

// found is a finding and where its entry stands in the listing.
type found struct {
	Finding
	order int
}

// ruleOnEntry is one rule's findings about one entry.
type ruleOnEntry struct {
	rule  string
	order int
}

// overflow is what a rule found past maxPerRule about one entry.
type overflow struct {
	e    *entry
	more int
}

// report collects the findings of one Check.
type report struct {
	found []found
	count map[ruleOnEntry]int       // findings kept, by rule and entry
	more  map[ruleOnEntry]*overflow // findings dropped past maxPerRule
}

// add records a finding of the rule id about e at path. fix, when empty,
// is the rule's usual fix. Past maxPerRule findings of one rule about e,
// add only counts them.
func (r *report) add(id string, e *entry, path, msg, fix string) {
	key := ruleOnEntry{id, e.order}
	if r.count == nil {
		r.count = map[ruleOnEntry]int{}
		r.more = map[ruleOnEntry]*overflow{}
	}
	if r.count[key] >= maxPerRule {
		if r.more[key] == nil {
			r.more[key] = &overflow{e: e}
		}
		r.more[key].more++
		return
	}
	r.count[key]++
	r.record(id, e, path, msg, fix)
}

// record appends a finding. An id Rules does not list is a mistake of
// mcpscope's; it is reported as such rather than dropped.
func (r *report) record(id string, e *entry, path, msg, fix string) {
	rule, ok := ruleByID[id]
	if !ok {
		rule = Rule{ID: id, Severity: SeverityError}
		msg = fmt.Sprintf("unlisted lint rule: %s", msg)
	}
	if fix == "" {
		fix = rule.Fix
	}
	r.found = append(r.found, found{
		Finding: e.about(Finding{Rule: id, Severity: rule.Severity, Path: path, Message: msg, Fix: fix}),
		order:   e.order,
	})
}

// addOverflow records, for each rule that found more than maxPerRule
// problems in one entry, one finding at the entry's path that counts the
// rest.
func (r *report) addOverflow() {
	keys := slices.SortedFunc(maps.Keys(r.more), func(a, b ruleOnEntry) int {
		return cmp.Or(cmp.Compare(a.order, b.order), cmp.Compare(a.rule, b.rule))
	})
	for _, k := range keys {
		o := r.more[k]
		r.record(k.rule, o.e, o.e.path, fmt.Sprintf("…and %s of this rule in this %s, not listed", plural.Count(o.more, "more finding", ""), noun[o.e.kind]), "")
	}
}

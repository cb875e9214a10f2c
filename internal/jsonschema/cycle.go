package jsonschema

import (
	"fmt"
	"strings"
)

// each calls fn on every subschema of n, saying whether it applies to the
// same value as n (in place) or to a part of it.
func (n *node) each(fn func(sub *node, inPlace bool)) {
	for _, s := range n.refs {
		fn(s, true)
	}
	for _, list := range [][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, s := range list {
			fn(s, true)
		}
	}
	for _, s := range []*node{n.not, n.ifThen, n.then, n.els} {
		if s != nil {
			fn(s, true)
		}
	}
	for _, d := range n.dependentSchemas {
		fn(d.schema, true)
	}
	for _, p := range n.properties {
		fn(p.schema, false)
	}
	for _, p := range n.patternProperties {
		fn(p.schema, false)
	}
	for _, s := range n.prefixItems {
		fn(s, false)
	}
	for _, s := range []*node{n.additionalProperties, n.propertyNames, n.unevaluatedProperties,
		n.items, n.contains, n.unevaluatedItems} {
		if s != nil {
			fn(s, false)
		}
	}
}

// checkCycles refuses a schema where a chain of in-place subschemas ($ref,
// allOf, not, if, …) comes back to where it started: validating it would
// never move into the value, and never end.
func checkCycles(root *node) error {
	var all []*node
	seen := map[*node]bool{root: true}
	for queue := []*node{root}; len(queue) > 0; {
		n := queue[0]
		queue = queue[1:]
		all = append(all, n)
		n.each(func(s *node, _ bool) {
			if !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		})
	}
	const (
		unvisited = iota
		onPath
		done
	)
	state := make(map[*node]int, len(all))
	inPlace := func(n *node) []*node {
		var out []*node
		n.each(func(s *node, in bool) {
			if in {
				out = append(out, s)
			}
		})
		return out
	}
	for _, start := range all {
		if state[start] != unvisited {
			continue
		}
		state[start] = onPath
		path := []cycleFrame{{start, inPlace(start)}}
		for len(path) > 0 {
			top := &path[len(path)-1]
			if len(top.next) == 0 {
				state[top.n] = done
				path = path[:len(path)-1]
				continue
			}
			s := top.next[0]
			top.next = top.next[1:]
			switch state[s] {
			case onPath:
				return cycleError(path, s)
			case unvisited:
				state[s] = onPath
				path = append(path, cycleFrame{s, inPlace(s)})
			}
		}
	}
	return nil
}

// cycleFrame is a schema on the path being searched, with the in-place
// subschemas still to search.
type cycleFrame struct {
	n    *node
	next []*node
}

// cycleError names the schemas of a cycle, from where it closes.
func cycleError(path []cycleFrame, back *node) error {
	var locs []string
	for _, f := range path {
		if f.n == back || len(locs) > 0 {
			locs = append(locs, f.n.loc)
		}
	}
	locs = append(locs, back.loc)
	return fmt.Errorf("the schema applies to itself without moving into the value, never ending: %s", strings.Join(locs, " → "))
}

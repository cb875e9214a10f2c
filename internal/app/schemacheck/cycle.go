package schemacheck

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkCycles refuses a schema where a chain of subschemas applied in
// place ($ref, allOf, not, if, …) comes back to where it started:
// validating it would never move into the value, and never end. Only the
// schemas this package compiled (see marked) are followed.
func checkCycles(roots []*jsonschema.Schema) error {
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[*jsonschema.Schema]int{}
	var visit func(*jsonschema.Schema) *jsonschema.Schema
	visit = func(s *jsonschema.Schema) (cycle *jsonschema.Schema) {
		state[s] = onPath
		eachSubschema(s, func(sub *jsonschema.Schema, inPlace bool) {
			switch {
			case cycle != nil || !inPlace || sub.Bool != nil || !marked(sub):
			case state[sub] == onPath:
				cycle = sub
			case state[sub] == unvisited:
				cycle = visit(sub)
			}
		})
		state[s] = done
		return cycle
	}
	for _, start := range reachable(roots) {
		if state[start] != unvisited {
			continue
		}
		if s := visit(start); s != nil {
			return fmt.Errorf("the schema refers to itself without end, at %s", strings.TrimPrefix(s.Location, schemaURL))
		}
	}
	return nil
}

// reachable lists the schemas this package compiled that roots reach.
func reachable(roots []*jsonschema.Schema) []*jsonschema.Schema {
	var all []*jsonschema.Schema
	seen := map[*jsonschema.Schema]bool{}
	queue := roots
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if seen[s] || s.Bool != nil || !marked(s) {
			continue
		}
		seen[s] = true
		all = append(all, s)
		eachSubschema(s, func(sub *jsonschema.Schema, _ bool) { queue = append(queue, sub) })
	}
	return all
}

package client

import (
	"context"
	"encoding/json"
	"fmt"
)

// maxListPages bounds the pages ListAll follows.
const maxListPages = 10000

// ListAll calls a */list method page by page, following nextCursor, and
// returns the items of field from every page, e.g.
// ListAll(ctx, "tools/list", "tools", nil). params, when given, must be an
// object; its cursor member is set for each next page.
func (s *Session) ListAll(ctx context.Context, method, field string, params any, opts ...CallOption) ([]json.RawMessage, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	ms, err := objectMembers(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	var items []json.RawMessage
	seen := map[string]bool{}
	for page := 1; ; page++ {
		var p any
		if ms != nil {
			p = encodeMembers(ms)
		}
		result, err := s.Call(ctx, method, p, opts...)
		if err != nil {
			return items, err
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(result, &members); err != nil {
			return items, &ProtocolError{Msg: fmt.Sprintf("%s page %d is not a JSON object: %v", method, page, err)}
		}
		var list []json.RawMessage
		if err := json.Unmarshal(members[field], &list); err != nil || members[field] == nil {
			return items, &ProtocolError{Msg: fmt.Sprintf("%s page %d has no %q array", method, page, field)}
		}
		items = append(items, list...)
		var cursor string
		if c, ok := members["nextCursor"]; ok && json.Unmarshal(c, &cursor) != nil {
			return items, &ProtocolError{Msg: fmt.Sprintf("%s page %d has a nextCursor that is not a string", method, page)}
		}
		if cursor == "" {
			return items, nil
		}
		if seen[cursor] || page >= maxListPages {
			return items, &ProtocolError{Msg: fmt.Sprintf("%s keeps paging (cursor %q on page %d)", method, cursor, page)}
		}
		seen[cursor] = true
		ms = setMember(ms, "cursor", mustJSON(cursor))
	}
}

package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxListPages bounds the pages ListAll follows.
const maxListPages = 10000

// ListAll calls a */list method page by page, following nextCursor, and
// returns the items of field from every page, e.g.
// ListAll(ctx, "tools/list", "tools", nil). params, when given, must be an
// object; its cursor member is set for each next page.
func (s *Session) ListAll(ctx context.Context, method, field string, params any, opts ...CallOption) ([]json.RawMessage, error) {
	items, _, err := s.ListAllCached(ctx, method, field, params, opts...)
	return items, err
}

// ListAllCached is ListAll that also returns the pages' cache hint
// (2026-07-28 ttlMs, cacheScope): the strictest of them (CacheHint.Min).
func (s *Session) ListAllCached(ctx context.Context, method, field string, params any, opts ...CallOption) ([]json.RawMessage, mcp.CacheHint, error) {
	var hint mcp.CacheHint
	raw, err := marshalParams(params)
	if err != nil {
		return nil, hint, fmt.Errorf("%s: %w", method, err)
	}
	var items []json.RawMessage
	call := func(_ int, p json.RawMessage) (json.RawMessage, error) {
		var params any
		if p != nil {
			params = p
		}
		return s.Call(ctx, method, params, opts...)
	}
	err = followPages(method, raw, maxListPages, call, func(page int, _ json.RawMessage, members map[string]json.RawMessage) error {
		var list []json.RawMessage
		if err := json.Unmarshal(members[field], &list); err != nil || members[field] == nil {
			return &ProtocolError{Msg: fmt.Sprintf("%s page %d has no %q array", method, page, field)}
		}
		items = append(items, list...)
		hint = hint.Min(mcp.CacheHintOf(members))
		return nil
	})
	return items, hint, err
}

// followPages calls a */list method through call page by page, from
// params (an object, or nil), following nextCursor up to maxPages, and
// hands take each page's result and its members. It stops at the first
// error of call or take, at a result that is no object, and at a cursor
// seen before.
func followPages(method string, params json.RawMessage, maxPages int,
	call func(page int, params json.RawMessage) (json.RawMessage, error),
	take func(page int, result json.RawMessage, members map[string]json.RawMessage) error) error {
	ms, err := objectMembers(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	seen := map[string]bool{}
	for page := 1; ; page++ {
		var p json.RawMessage
		if ms != nil {
			p = encodeMembers(ms)
		}
		result, err := call(page, p)
		if err != nil {
			return err
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(result, &members); err != nil {
			return &ProtocolError{Msg: fmt.Sprintf("%s page %d is not a JSON object: %v", method, page, err)}
		}
		if err := take(page, result, members); err != nil {
			return err
		}
		var cursor string
		if c, ok := members["nextCursor"]; ok && json.Unmarshal(c, &cursor) != nil {
			return &ProtocolError{Msg: fmt.Sprintf("%s page %d has a nextCursor that is not a string", method, page)}
		}
		if cursor == "" {
			return nil
		}
		if seen[cursor] || page >= maxPages {
			return &ProtocolError{Msg: fmt.Sprintf("%s keeps paging (cursor %q on page %d)", method, cursor, page)}
		}
		seen[cursor] = true
		ms = setMember(ms, "cursor", mustJSON(cursor))
	}
}

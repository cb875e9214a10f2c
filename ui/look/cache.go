package look

import (
	"time"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// CacheHintLine says a result's cache hint (2026-07-28 ttlMs, cacheScope)
// in one line safe to print: "cached 60 s, public", "stale at once,
// private". With now, a result fetched longer ago than its ttl says so
// ("· stale: fetched 3m0s ago"); without (now zero), a ttl says when the
// result goes stale ("· stale after 12:01:02").
func CacheHintLine(h mcp.CacheHint, fetched, now time.Time) string {
	s := h.Text()
	switch {
	case !h.HasTTL || h.TTL == 0 || fetched.IsZero():
	case now.IsZero():
		s += " · stale after " + fetched.Add(h.TTL).Format("15:04:05")
	case h.StaleAt(fetched, now):
		s += " · stale: fetched " + Duration(now.Sub(fetched).Round(time.Second)) + " ago"
	}
	return termtext.Line(s)
}

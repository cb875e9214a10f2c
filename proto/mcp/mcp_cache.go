package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Cache scopes a 2026-07-28 result may name (cacheScope); an absent scope
// means CacheScopePublic.
const (
	CacheScopePublic  = "public"
	CacheScopePrivate = "private"
)

// maxTTLMs is the largest ttlMs taken as a duration (about 292 years, the
// most time.Duration holds); a larger one is a problem, not a hint.
const maxTTLMs = math.MaxInt64 / int64(time.Millisecond)

// maxScopeShown is how many bytes of an unknown cacheScope are kept.
const maxScopeShown = 64

// CacheHint is what a 2026-07-28 result (server/discover, tools/list,
// prompts/list, resources/list, resources/templates/list, resources/read)
// says of how long it stays fresh: ttlMs, the milliseconds a client may
// reuse it (0: stale at once), and cacheScope, who may share it. Older
// servers may send the members too; they mean the same there.
type CacheHint struct {
	// Present says the result carries ttlMs or cacheScope.
	Present bool
	// TTL is ttlMs as a duration; meaningful when HasTTL.
	TTL time.Duration
	// HasTTL says ttlMs is a usable whole number of milliseconds.
	HasTTL bool
	// Scope is cacheScope as sent ("" when absent).
	Scope string
	// Problem says why ttlMs or cacheScope is not what the spec allows
	// (negative, fractional, too large, not a number, an unknown scope),
	// "" when both are fine.
	Problem string
}

// ReadCacheHint reads the cache hint of a result; the zero CacheHint when
// the result is no object or carries neither member.
func ReadCacheHint(result json.RawMessage) CacheHint {
	var r struct {
		TTLMs      json.RawMessage `json:"ttlMs"`
		CacheScope json.RawMessage `json:"cacheScope"`
	}
	if json.Unmarshal(result, &r) != nil {
		return CacheHint{}
	}
	return cacheHint(r.TTLMs, r.CacheScope)
}

// CacheHintOf reads the cache hint of a result already split into its
// members.
func CacheHintOf(members map[string]json.RawMessage) CacheHint {
	return cacheHint(members["ttlMs"], members["cacheScope"])
}

// cacheHint reads the members ttlMs and cacheScope (nil when absent).
func cacheHint(ttlMs, cacheScope json.RawMessage) CacheHint {
	var h CacheHint
	var problems []string
	if len(ttlMs) > 0 && !bytes.Equal(ttlMs, []byte("null")) {
		h.Present = true
		ttl, problem := readTTL(ttlMs)
		if problem != "" {
			problems = append(problems, problem)
		} else {
			h.TTL, h.HasTTL = ttl, true
		}
	}
	if len(cacheScope) > 0 && !bytes.Equal(cacheScope, []byte("null")) {
		h.Present = true
		if json.Unmarshal(cacheScope, &h.Scope) != nil {
			problems = append(problems, "cacheScope is not a string")
		} else if h.Scope != CacheScopePublic && h.Scope != CacheScopePrivate {
			if len(h.Scope) > maxScopeShown {
				h.Scope = h.Scope[:maxScopeShown] + "…"
			}
			problems = append(problems, "cacheScope "+strconv.Quote(h.Scope)+" is neither public nor private")
		}
	}
	h.Problem = strings.Join(problems, "; ")
	return h
}

// readTTL reads ttlMs: a whole, non-negative number of milliseconds that
// fits a duration; else the problem with it.
func readTTL(raw json.RawMessage) (time.Duration, string) {
	var n json.Number
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
		return 0, "ttlMs is not a number"
	}
	ms, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(n.String(), 64)
		switch {
		case ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1e300 && f >= 0 && f <= float64(maxTTLMs):
			ms = int64(f) // 6e4 is a whole number written with an exponent
		case ferr == nil && f < 0:
			return 0, "ttlMs " + shortNumber(n) + " is negative"
		case ferr == nil && f == math.Trunc(f):
			return 0, "ttlMs " + shortNumber(n) + " is too large"
		default:
			return 0, "ttlMs " + shortNumber(n) + " is not a whole number of milliseconds"
		}
	}
	switch {
	case ms < 0:
		return 0, "ttlMs " + shortNumber(n) + " is negative"
	case ms > maxTTLMs:
		return 0, "ttlMs " + shortNumber(n) + " is too large"
	}
	return time.Duration(ms) * time.Millisecond, ""
}

// shortNumber is a number as sent, cut to 24 characters.
func shortNumber(n json.Number) string {
	s := n.String()
	if len(s) > 24 {
		s = s[:24] + "…"
	}
	return s
}

// Text says the hint in a few words, safe to print: "cached 60 s,
// public", "stale at once, private", "no cache hint", and the problem with
// it when there is one.
func (h CacheHint) Text() string {
	if !h.Present {
		return "no cache hint"
	}
	scope := h.Scope
	switch scope {
	case "":
		scope = CacheScopePublic + " (by default)"
	case CacheScopePublic, CacheScopePrivate:
	default:
		scope = strconv.Quote(scope) // a server's word, shown escaped
	}
	var s string
	switch {
	case h.HasTTL && h.TTL == 0:
		s = "stale at once, " + scope
	case h.HasTTL:
		s = "cached " + ttlText(h.TTL) + ", " + scope
	default:
		s = "cache scope " + scope
	}
	if h.Problem != "" {
		s += " (" + h.Problem + ")"
	}
	return s
}

// ttlText writes a ttl the way people read it: "60 s", "5 min", "250 ms".
func ttlText(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < 2*time.Minute && d%time.Second == 0:
		return fmt.Sprintf("%d s", int64(d/time.Second))
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int64(d/(24*time.Hour)))
	}
	return d.Round(time.Second).String()
}

// StaleAt says whether a result fetched at fetched is stale at now by its
// hint: false when it has no usable ttl.
func (h CacheHint) StaleAt(fetched, now time.Time) bool {
	return h.HasTTL && now.Sub(fetched) > h.TTL
}

// Min keeps the stricter of two hints (the shorter ttl, the private
// scope), for a list fetched in several pages.
func (h CacheHint) Min(o CacheHint) CacheHint {
	switch {
	case !o.Present:
		return h
	case !h.Present:
		return o
	}
	if o.HasTTL && (!h.HasTTL || o.TTL < h.TTL) {
		h.TTL, h.HasTTL = o.TTL, true
	}
	if o.Scope == CacheScopePrivate {
		h.Scope = o.Scope
	}
	if h.Problem == "" {
		h.Problem = o.Problem
	}
	return h
}

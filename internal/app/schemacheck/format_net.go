package schemacheck

import (
	"net/netip"
	"strings"
)

// isHostname checks an RFC 1123 host name: dot-separated labels of 1 to
// 63 letters, digits and inner hyphens, 253 characters in all; one
// trailing dot is allowed.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := range len(label) {
			if c := label[i]; !isAlnum(c) && c != '-' {
				return false
			}
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isIPv4 checks a dotted quad without leading zeros: 192.168.0.1.
func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || len(p) > 1 && p[0] == '0' {
			return false
		}
		n, ok := digits(p, len(p))
		if !ok || n > 255 {
			return false
		}
	}
	return true
}

// isIPv6 checks an IPv6 address (RFC 4291 text form, no zone).
func isIPv6(s string) bool {
	if !strings.Contains(s, ":") || strings.Contains(s, "%") {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6()
}

// isEmail checks an RFC 5321 mailbox: a dot-atom or quoted local part, an
// @, and a host name or an address literal ([192.0.2.1], [IPv6:…]).
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || at > 64 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !isDotAtom(local) && !isQuoted(local) {
		return false
	}
	if lit, ok := strings.CutPrefix(domain, "["); ok {
		lit, ok = strings.CutSuffix(lit, "]")
		if v6, isV6 := strings.CutPrefix(lit, "IPv6:"); isV6 {
			return ok && isIPv6(v6)
		}
		return ok && isIPv4(lit)
	}
	return isHostname(domain)
}

// isDotAtom checks atoms of atext joined by single dots.
func isDotAtom(s string) bool {
	for atom := range strings.SplitSeq(s, ".") {
		if atom == "" {
			return false
		}
		for i := range len(atom) {
			if c := atom[i]; !isAlnum(c) && !strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", rune(c)) {
				return false
			}
		}
	}
	return true
}

// isQuoted checks a quoted string of printable ASCII, \ escaping.
func isQuoted(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		switch c := s[i]; {
		case c == '\\':
			if i++; i == len(s)-1 {
				return false
			}
		case c == '"' || c < ' ' || c > '~':
			return false
		}
	}
	return true
}

// isURI checks an RFC 3986 URI: a scheme, then the hierarchical part,
// query and fragment in URI characters.
func isURI(s string) bool {
	_, rest, ok := cutScheme(s)
	return ok && isHierPart(rest)
}

// isURIReference checks a URI or a relative reference, whose first
// segment may not hold a colon.
func isURIReference(s string) bool {
	if _, rest, ok := cutScheme(s); ok {
		return isHierPart(rest)
	}
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	return !strings.Contains(s[:end], ":") && isHierPart(s)
}

// cutScheme splits "scheme:rest" when s starts with a valid scheme.
func cutScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 || !isAlpha(s[0]) {
		return "", "", false
	}
	for j := 1; j < i; j++ {
		if c := s[j]; !isAlnum(c) && c != '+' && c != '-' && c != '.' {
			return "", "", false
		}
	}
	return s[:i], s[i+1:], true
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isHierPart checks what follows a scheme: an optional //authority, a
// path, a query and a fragment.
func isHierPart(s string) bool {
	s, frag, _ := strings.Cut(s, "#")
	s, query, _ := strings.Cut(s, "?")
	if !uriChars(frag, ":@/?") || !uriChars(query, ":@/?") {
		return false
	}
	if rest, ok := strings.CutPrefix(s, "//"); ok {
		end := strings.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		if !isAuthority(rest[:end]) {
			return false
		}
		s = rest[end:]
	}
	return uriChars(s, ":@/")
}

// isAuthority checks [userinfo@]host[:port].
func isAuthority(a string) bool {
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		if !uriChars(a[:at], ":") {
			return false
		}
		a = a[at+1:]
	}
	host, port := a, ""
	if rest, ok := strings.CutPrefix(a, "["); ok {
		end := strings.IndexByte(rest, ']')
		if end < 0 || !isIPLiteral(rest[:end]) {
			return false
		}
		host, port = "", rest[end+1:]
		if port != "" {
			var ok bool
			if port, ok = strings.CutPrefix(port, ":"); !ok {
				return false
			}
		}
	} else if i := strings.IndexByte(a, ':'); i >= 0 {
		host, port = a[:i], a[i+1:]
	}
	if _, ok := digits(port, len(port)); !ok && port != "" {
		return false
	}
	return uriChars(host, "")
}

// isIPLiteral checks what is between the brackets of an IP-literal host:
// an IPv6 address or an IPvFuture (v1.something).
func isIPLiteral(s string) bool {
	if rest, ok := strings.CutPrefix(strings.ToLower(s), "v"); ok {
		ver, addr, ok := strings.Cut(rest, ".")
		if !ok || ver == "" || addr == "" || strings.IndexFunc(ver, func(r rune) bool { return r > 0x7f || !isHex(byte(r)) }) >= 0 {
			return false
		}
		return uriChars(addr, ":") && !strings.Contains(addr, "%")
	}
	return isIPv6(s)
}

// uriChars reports whether s holds only unreserved characters, percent
// escapes, sub-delimiters and the characters of extra.
func uriChars(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlnum(c) || strings.IndexByte("-._~!$&'()*+,;=", c) >= 0 || strings.IndexByte(extra, c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

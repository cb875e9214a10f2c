package schemacheck

import (
	"encoding/json"
	"strconv"
	"testing"
)

// Each asserted format, with values on both sides of its edges; the
// formats mcpscope does not assert let any string pass.
func TestFormats(t *testing.T) {
	for format, cases := range map[string]map[string]bool{
		"date": {"2026-01-31": true, "2024-02-29": true, "2023-02-29": false, "2026-13-01": false, "2026-04-31": false,
			"2026-1-01": false, "2026-01-01T00:00:00Z": false, "２０２６-01-01": false},
		"date-time": {"2026-01-31T12:30:00Z": true, "2026-01-31t12:30:00.123+02:00": true, "2026-01-31 12:30:00Z": false,
			"2026-01-31T24:00:00Z": false, "2026-01-31T12:30:00": false, "1998-12-31T23:59:60Z": true, "1998-12-31T22:59:60Z": false},
		"time": {"08:30:06Z": true, "23:59:60+00:00": true, "15:59:60-08:00": true, "12:00:60Z": false, "08:30:06.Z": false,
			"08:30:06+25:00": false, "8:30:06Z": false},
		"duration": {"P1Y2M3DT4H5M6S": true, "PT1M": true, "P2W": true, "P1D": true, "P": false, "PT": false, "P1D2H": false,
			"P2D1Y": false, "P1W2D": false, "1D": false, "P1.5D": false},
		"email": {"ada@example.com": true, "a.b+c@x.io": true, `"ada lovelace"@example.com`: true, "ada@[192.0.2.1]": true,
			"ada@[IPv6:::1]": true, "ada": false, "@example.com": false, "ada@": false, ".ada@x.io": false, "a..b@x.io": false,
			"ada@-x.io": false, "ada@[300.0.0.1]": false},
		"hostname": {"example.com": true, "a": true, "xn--bcher-kva.example": true, "example.com.": true, "-a.com": false,
			"a_b.com": false, "": false, ".": false, "a..b": false, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com": false},
		"ipv4": {"192.168.0.1": true, "0.0.0.0": true, "256.1.1.1": false, "01.1.1.1": false, "1.1.1": false, "1.1.1.1.": false, "a.b.c.d": false},
		"ipv6": {"::1": true, "2001:db8::8a2e:370:7334": true, "::ffff:192.0.2.1": true, "1.2.3.4": false, "fe80::1%eth0": false,
			"12345::": false, ":::": false},
		"uri": {"https://example.com/a?b=c#d": true, "urn:isbn:0451450523": true, "mailto:ada@example.com": true,
			"http://[2001:db8::1]:8080/": true, "http://u:p@host:80/": true, "//example.com/a": false, "/a/b": false,
			"http://exa mple.com": false, "http://example.com/%zz": false, "1http://x": false, "http://host:port/": false,
			`\\server\share`: false},
		"uri-reference": {"/a/b?c#d": true, "a/b": true, "#frag": true, "": true, "https://x.test/": true, "a:b/c": true,
			"./a:b": true, ":no": false, "a b": false, `\\server\share`: false},
		"uuid": {"2eb8aa08-aa98-11ea-b4aa-73b441d16380": true, "2EB8AA08-AA98-11EA-B4AA-73B441D16380": true,
			"2eb8aa08aa9811eab4aa73b441d16380": false, "2eb8aa08-aa98-11ea-b4aa-73b441d1638g": false},
		"regex":     {"^[a-z]+$": true, "(?=a)b": true, `\1`: true, "([a-z]": false, "[a-": false, "*a": false, `a\`: false},
		"x-unknown": {"anything": true},
		"idn-email": {"not an email": true},
		"semver":    {"not a version": true},
	} {
		s, err := Compile(json.RawMessage(`{"format":` + strconv.Quote(format) + `}`))
		if err != nil {
			t.Fatalf("format %s: %v", format, err)
		}
		for v, want := range cases {
			fails, err := s.Validate(json.RawMessage(strconv.Quote(v)))
			if err != nil {
				t.Fatalf("format %s, %q: %v", format, v, err)
			}
			if got := len(fails) == 0; got != want {
				t.Errorf("format %s, %q: valid = %v, want %v (%v)", format, v, got, want, fails)
			}
		}
	}
}

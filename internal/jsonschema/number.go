package jsonschema

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// number is a JSON number held exactly as digits × 10^exp, the digits
// without leading or trailing zeros ("" for zero, which is never negative).
// Comparing, equality and the integer test need no arithmetic; only
// multipleOf and a bound's *big.Rat do.
type number struct {
	neg    bool
	digits string
	exp    int64
}

// maxExp bounds a written exponent; numbers past 10^±maxExp are taken as
// if their exponent were maxExp (no document can tell them apart).
const maxExp = 1e17

// ratMaxExp and ratMaxDigits bound a schema's numeric bound, which is
// kept as a *big.Rat to report it.
const (
	ratMaxExp    = 10000
	ratMaxDigits = 1000
)

// parseNumber reads a number in JSON's syntax.
func parseNumber(s string) (number, error) {
	var n number
	i := 0
	if i < len(s) && s[i] == '-' {
		n.neg = true
		i++
	}
	start := i
	i = skipDigits(s, i)
	whole := s[start:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		fs := i + 1
		i = skipDigits(s, fs)
		frac = s[fs:i]
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := i < len(s) && s[i] == '-'
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		es := i
		for ; i < len(s) && isDigit(s[i]); i++ {
			if exp < maxExp {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if i == es {
			return number{}, fmt.Errorf("%q is not a number", s)
		}
		exp = min(exp, maxExp)
		if neg {
			exp = -exp
		}
	}
	if whole == "" || i != len(s) {
		return number{}, fmt.Errorf("%q is not a number", s)
	}
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return number{}, nil
	}
	n.digits = trimmed
	n.exp = exp - int64(len(frac)) + int64(len(digits)-len(trimmed))
	return n, nil
}

func skipDigits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// sign is -1, 0 or 1.
func (a number) sign() int {
	switch {
	case a.digits == "":
		return 0
	case a.neg:
		return -1
	}
	return 1
}

// isInteger reports whether the number has no fraction (1.0 has none).
func (a number) isInteger() bool { return a.digits == "" || a.exp >= 0 }

// cmp compares a and b exactly: -1, 0 or 1.
func (a number) cmp(b number) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	// The position of the leading digit decides, then the digits.
	c := cmp.Compare(int64(len(a.digits))+a.exp, int64(len(b.digits))+b.exp)
	if c == 0 {
		c = strings.Compare(a.digits, b.digits)
	}
	return sa * c
}

// multipleOf reports whether a is an integer multiple of b (b > 0).
func (a number) multipleOf(b number) bool {
	if a.digits == "" {
		return true
	}
	if b.digits == "" {
		return false
	}
	// a/b = (A/B)·10^k. With k < 0, B·10^-k would have to divide A, whose
	// last digit is not 0.
	k := a.exp - b.exp
	if k < 0 {
		return false
	}
	B := bigDigits(b.digits)
	r := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), B)
	return r.Mul(r, modDigits(a.digits, B)).Mod(r, B).Sign() == 0
}

// modDigits is the decimal digits d modulo m, read 18 digits at a time:
// linear in the digits, where reading them into a big.Int is not.
func modDigits(d string, m *big.Int) *big.Int {
	r, chunk, scale := new(big.Int), new(big.Int), new(big.Int)
	for len(d) > 0 {
		n := min(18, len(d))
		v, _ := strconv.ParseUint(d[:n], 10, 64)
		scale.Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
		r.Mul(r, scale).Add(r, chunk.SetUint64(v)).Mod(r, m)
		d = d[n:]
	}
	return r
}

// count reads a non-negative integer keyword (minLength, maxItems, …);
// values past math.MaxInt are math.MaxInt.
func (a number) count() (int, bool) {
	if a.neg || !a.isInteger() {
		return 0, false
	}
	if a.digits == "" {
		return 0, true
	}
	if int64(len(a.digits))+a.exp > 18 {
		return math.MaxInt, true
	}
	n, err := strconv.ParseInt(a.digits+strings.Repeat("0", int(a.exp)), 10, 64)
	if err != nil || n > math.MaxInt {
		return math.MaxInt, true
	}
	return int(n), true
}

// rat is the number as a fraction; false when it has more than
// ratMaxDigits digits or an exponent past ratMaxExp.
func (a number) rat() (*big.Rat, bool) {
	if len(a.digits) > ratMaxDigits || a.exp > ratMaxExp || a.exp < -ratMaxExp {
		return nil, false
	}
	n := bigDigits(a.digits)
	if a.neg {
		n.Neg(n)
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs(a.exp)), nil)
	if a.exp >= 0 {
		return new(big.Rat).SetInt(n.Mul(n, p)), true
	}
	return new(big.Rat).SetFrac(n, p), true
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// bigDigits reads decimal digits ("" is 0).
func bigDigits(d string) *big.Int {
	n := new(big.Int)
	if d != "" {
		n.SetString(d, 10)
	}
	return n
}

// appendCanonical appends a form equal for equal numbers only.
func (a number) appendCanonical(b []byte) []byte {
	if a.neg {
		b = append(b, '-')
	}
	b = append(append(b, a.digits...), 'e')
	return strconv.AppendInt(b, a.exp, 10)
}

// Package fuzzy is the fuzzy filter of the UI's lists: a case-insensitive
// subsequence match with a score.
package fuzzy

import (
	"strings"
	"unicode"
)

// maxFuzzyText bounds the runes of a text the fuzzy filter looks at.
const maxFuzzyText = 512

// Score says whether pattern matches text as a case-insensitive
// subsequence, and how well: higher is better. A substring beats letters
// scattered over the text, an earlier one beats a later one, and a match
// at the start of a word counts more. An empty pattern matches everything
// with score 0.
func Score(pattern, text string) (int, bool) {
	p := []rune(strings.ToLower(pattern))
	t := []rune(strings.ToLower(text))
	if len(t) > maxFuzzyText {
		t = t[:maxFuzzyText]
	}
	if len(p) == 0 {
		return 0, true
	}
	if i := runeIndex(t, p); i >= 0 {
		score := 2000 - i
		if i == 0 || wordSeparator(t[i-1]) {
			score += 1000
		}
		if len(p) == len(t) {
			score += 1000
		}
		return score, true
	}
	score, j, prev := 0, 0, -2
	for i, r := range t {
		if j == len(p) {
			break
		}
		if r != p[j] {
			continue
		}
		score += 10
		if i == prev+1 {
			score += 15
		}
		if i == 0 || wordSeparator(t[i-1]) {
			score += 20
		}
		prev = i
		j++
	}
	if j < len(p) {
		return 0, false
	}
	return score - len(t)/8, true
}

// runeIndex is the index of the first occurrence of p in t, or -1.
func runeIndex(t, p []rune) int {
	for i := 0; i+len(p) <= len(t); i++ {
		match := true
		for k := range p {
			if t[i+k] != p[k] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}

// wordSeparator reports whether r ends a word in a name or URI.
func wordSeparator(r rune) bool {
	return r == '-' || r == '_' || r == '/' || r == '.' || r == ':' || unicode.IsSpace(r)
}

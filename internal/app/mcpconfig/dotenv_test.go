package mcpconfig

import (
	"reflect"
	"testing"
)

func TestParseDotenv(t *testing.T) {
	got, err := ParseDotenv([]byte("# c\nA=1\r\nexport B = 'two words'\n\nC=\"x=y\"\nD=\n"))
	want := []Pair{{"A", "1"}, {"B", "two words"}, {"C", "x=y"}, {"D", ""}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v; want %v", got, err, want)
	}
	if _, err := ParseDotenv([]byte("A=1\nnot a pair\n")); err == nil || err.Error() != "line 2 is not KEY=VALUE" {
		t.Fatalf("a bad line: %v", err)
	}
}

func FuzzParseDotenv(f *testing.F) {
	f.Add([]byte("A=1\nexport B='x'\n#c\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		vars, err := ParseDotenv(in)
		if err == nil && len(vars) > len(in) {
			t.Fatalf("%d variables from %d bytes", len(vars), len(in))
		}
	})
}

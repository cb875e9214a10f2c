package gateway

import "testing"

func TestGUIDSwapDotNet(t *testing.T) {
	g, err := ParseGUID("550e8400-e29b-41d4-a716-446655440000")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.SwapDotNet().String(); got != "00840e55-9be2-d441-a716-446655440000" {
		t.Errorf("swapped = %s", got)
	}
	if g.SwapDotNet().SwapDotNet() != g {
		t.Error("swapping twice is not the identity")
	}
}

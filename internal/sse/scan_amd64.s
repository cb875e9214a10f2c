//go:build !purego

#include "textflag.h"

// lineEnds maps a byte's low nibble to the line end with that nibble: LF
// (0x0A) at 10, CR (0x0D) at 13, and 0x80 elsewhere, which no byte VPSHUFB
// looks up equals (a byte with its high bit set looks up 0).
DATA lineEnds<>+0(SB)/8, $0x8080808080808080
DATA lineEnds<>+8(SB)/8, $0x80800d80800a8080
GLOBL lineEnds<>(SB), RODATA|NOPTR, $16

// func lineFreeAVX2(b []byte) int
TEXT ·lineFreeAVX2(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI
	ANDQ $~127, BX
	ADDQ SI, BX // the end of the last whole block
	CMPQ DI, BX
	JAE  done
	VBROADCASTI128 lineEnds<>(SB), Y0

	PCALIGN $32
loop:
	VMOVDQU  (DI), Y1
	VMOVDQU  32(DI), Y2
	VMOVDQU  64(DI), Y3
	VMOVDQU  96(DI), Y4
	VPSHUFB  Y1, Y0, Y5
	VPSHUFB  Y2, Y0, Y6
	VPSHUFB  Y3, Y0, Y7
	VPSHUFB  Y4, Y0, Y8
	VPCMPEQB Y1, Y5, Y5
	VPCMPEQB Y2, Y6, Y6
	VPCMPEQB Y3, Y7, Y7
	VPCMPEQB Y4, Y8, Y8
	VPOR     Y5, Y6, Y5
	VPOR     Y7, Y8, Y7
	VPOR     Y5, Y7, Y5
	VPTEST   Y5, Y5
	JNZ      found
	ADDQ     $128, DI
	CMPQ     DI, BX
	JB       loop

found:
	VZEROUPPER

done:
	SUBQ SI, DI
	MOVQ DI, ret+24(FP)
	RET

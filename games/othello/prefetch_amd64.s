//go:build !purego

#include "textflag.h"

// func prefetch(addr *endEntry)
TEXT ·prefetch(SB), NOSPLIT|NOFRAME, $0-8
	MOVQ addr+0(FP), AX
	PREFETCHT0 (AX)
	RET

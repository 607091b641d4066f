//go:build !purego

#include "textflag.h"

// The readings of the half boards (readings.go, patterns_lookup.go), with
// SSE2, which every amd64 processor has: a row of halfTables is 64 bytes,
// the half boards of ranks use its first 48 (six words, three registers),
// those of files its first 16 (words 0 and 1; word 0 then also takes ranks
// 3 and 4, which only its corner3x3 lanes read, and those are not used).

// ROW sets R8 to the offset of the row of the low byte of src in the table
// of a rank and shifts src to the next byte.
#define ROW(src) \
	MOVBQZX src, R8; \
	SHLQ    $6, R8; \
	SHRQ    $8, src

// AT is byte off of the row at R8 in the table of rank k (16384 bytes a
// rank).
#define AT(k, off) (k*16384+off)(SI)(R8*1)

// ADD1 adds 16 bytes of the row at R8 of rank k, from byte off, to x.
#define ADD1(k, off, x) \
	MOVOU AT(k, off), X8; \
	PADDQ X8, x

// SUM3 sums the first 48 bytes of the rows of the four low bytes of src
// into x0, x1 and x2.
#define SUM3(src, x0, x1, x2) \
	ROW(src); MOVOU AT(0, 0), x0; MOVOU AT(0, 16), x1; MOVOU AT(0, 32), x2; \
	ROW(src); ADD1(1, 0, x0); ADD1(1, 16, x1); ADD1(1, 32, x2); \
	ROW(src); ADD1(2, 0, x0); ADD1(2, 16, x1); ADD1(2, 32, x2); \
	ROW(src); ADD1(3, 0, x0); ADD1(3, 16, x1); ADD1(3, 32, x2)

// SUM1 sums the first 16 bytes of the rows of the four low bytes of src
// into x0.
#define SUM1(src, x0) \
	ROW(src); MOVOU AT(0, 0), x0; \
	ROW(src); ADD1(1, 0, x0); \
	ROW(src); ADD1(2, 0, x0); \
	ROW(src); ADD1(3, 0, x0)

// RANKS writes at off(DI) the six words of the half board whose side to
// move holds the low four bytes of own, its opponent those of opp.
#define RANKS(own, opp, off) \
	SUM3(own, X0, X1, X2); \
	SUM3(opp, X3, X4, X5); \
	PSLLQ $1, X3; PADDQ X3, X0; MOVOU X0, off(DI); \
	PSLLQ $1, X4; PADDQ X4, X1; MOVOU X1, (off+16)(DI); \
	PSLLQ $1, X5; PADDQ X5, X2; MOVOU X2, (off+32)(DI)

// FILES writes at off(DI) words 0 and 1 of the same for a half board of
// the transposed board.
#define FILES(own, opp, off) \
	SUM1(own, X0); \
	SUM1(opp, X3); \
	PSLLQ $1, X3; PADDQ X3, X0; MOVOU X0, off(DI)

// MIRRORED loads own and opp into R9 and R10, and their ranks in reverse
// order (the board mirrored) into R11 and R12.
#define MIRRORED(own, opp) \
	MOVQ   own, R9; \
	MOVQ   opp, R10; \
	MOVQ   R9, R11; \
	MOVQ   R10, R12; \
	BSWAPQ R11; \
	BSWAPQ R12

// func readHalves(t *[4][256][8]uint64, own, opp, ownT, oppT uint64, r *halfReadings)
TEXT ·readHalves(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), SI
	MOVQ r+40(FP), DI
	MIRRORED(own+8(FP), opp+16(FP))
	RANKS(R9, R10, 0)   // ranks 1-4
	RANKS(R11, R12, 48) // ranks 8-5: the board mirrored
	MIRRORED(ownT+24(FP), oppT+32(FP))
	FILES(R9, R10, 96)   // files a-d: the board transposed
	FILES(R11, R12, 112) // files h-e
	RET

// LOAD8 loads the 128 bytes of readings at p into X0-X7.
#define LOAD8(p) \
	MOVOU 0(p), X0; MOVOU 16(p), X1; MOVOU 32(p), X2; MOVOU 48(p), X3; \
	MOVOU 64(p), X4; MOVOU 80(p), X5; MOVOU 96(p), X6; MOVOU 112(p), X7

// STORE8 stores X0-X7 into the 128 bytes at p.
#define STORE8(p) \
	MOVOU X0, 0(p); MOVOU X1, 16(p); MOVOU X2, 32(p); MOVOU X3, 48(p); \
	MOVOU X4, 64(p); MOVOU X5, 80(p); MOVOU X6, 96(p); MOVOU X7, 112(p)

// SQUARE applies op (PADDQ or PSUBQ) to X0-X7 and the readings of the
// square whose readings lie at R8(SI), each part twice when twice is
// TWICE (NOP: once).
#define TWICE PADDQ X8, X8
#define PART(op, off, x, twice) \
	MOVOU off(SI)(R8*1), X8; twice; op X8, x
#define SQUARE(op, twice) \
	PART(op, 0, X0, twice); PART(op, 16, X1, twice); PART(op, 32, X2, twice); PART(op, 48, X3, twice); \
	PART(op, 64, X4, twice); PART(op, 80, X5, twice); PART(op, 96, X6, twice); PART(op, 112, X7, twice)

// SQUARES applies SQUARE(op, twice) for each square of x, which it
// clears; loop and done are the loop's labels.
#define SQUARES(x, op, twice, loop, done) \
	TESTQ x, x; \
	JZ    done; \
	loop: \
	BSFQ x, R8; \
	SHLQ $7, R8; \
	SQUARE(op, twice); \
	LEAQ -1(x), CX; \
	ANDQ CX, x; \
	JNZ  loop; \
	done:

// func updateReadings(t *[64]halfReadings, base *halfReadings, once, twice, minus uint64, out *halfReadings)
TEXT ·updateReadings(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), SI
	MOVQ base+8(FP), DI
	MOVQ out+40(FP), DX
	LOAD8(DI)
	MOVQ once+16(FP), AX
	SQUARES(AX, PADDQ, NOP, onceLoop, onceDone)
	MOVQ twice+24(FP), AX
	SQUARES(AX, PADDQ, TWICE, twiceLoop, twiceDone)
	MOVQ minus+32(FP), AX
	SQUARES(AX, PSUBQ, NOP, minusLoop, minusDone)
	STORE8(DX)
	RET

#include "textflag.h"

// func asciiRun(s string) int
//
// The length of the run of printable ASCII, tabs and newlines at the
// start of s: sixteen bytes at a time with SSE2, the last few one by one.
TEXT ·asciiRun(SB), NOSPLIT, $0-24
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ SI, DI
	LEAQ (SI)(BX*1), R8 // the end of s
	MOVOU controls<>(SB), X8
	MOVOU dels<>(SB), X9
	MOVOU tabs<>(SB), X10
	MOVOU newlines<>(SB), X11
	CMPQ BX, $16
	JB   tail

loop:
	MOVOU    (SI), X0
	PMOVMSKB X0, AX // bytes >= 0x80
	MOVOU    X0, X1
	PCMPEQB  X9, X1 // X1 = b == 0x7f
	MOVOU    X0, X2
	PMINUB   X8, X2
	PCMPEQB  X0, X2 // X2 = b <= 0x1f
	MOVOU    X0, X3
	PCMPEQB  X10, X3
	MOVOU    X0, X4
	PCMPEQB  X11, X4
	POR      X4, X3 // X3 = b is a tab or a newline
	PANDN    X2, X3 // X3 = a control other than those
	POR      X1, X3
	PMOVMSKB X3, CX
	ORL      CX, AX
	TESTL    AX, AX
	JNZ      found
	ADDQ     $16, SI
	SUBQ     $16, BX
	CMPQ     BX, $16
	JAE      loop

tail:
	CMPQ SI, R8
	JAE  done

tailloop:
	MOVBLZX (SI), AX
	CMPB    AL, $0x7f
	JAE     done
	CMPB    AL, $0x20
	JAE     next
	CMPB    AL, $0x09
	JEQ     next
	CMPB    AL, $0x0a
	JNE     done

next:
	INCQ SI
	CMPQ SI, R8
	JB   tailloop

done:
	SUBQ DI, SI
	MOVQ SI, ret+16(FP)
	RET

found:
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ AX, SI
	MOVQ SI, ret+16(FP)
	RET

DATA controls<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL controls<>(SB), RODATA|NOPTR, $16

DATA dels<>+0(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA dels<>+8(SB)/8, $0x7f7f7f7f7f7f7f7f
GLOBL dels<>(SB), RODATA|NOPTR, $16

DATA tabs<>+0(SB)/8, $0x0909090909090909
DATA tabs<>+8(SB)/8, $0x0909090909090909
GLOBL tabs<>(SB), RODATA|NOPTR, $16

DATA newlines<>+0(SB)/8, $0x0a0a0a0a0a0a0a0a
DATA newlines<>+8(SB)/8, $0x0a0a0a0a0a0a0a0a
GLOBL newlines<>(SB), RODATA|NOPTR, $16

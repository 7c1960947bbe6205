#include "textflag.h"

// func stringRun(b []byte) int
//
// The length of the run of JSON string text at the start of b: the index
// of the first '"', control character (< 0x20) or backslash that does not
// start a two-byte escape (\" \\ \/ \b \f \n \r \t), or len(b). Two-byte
// escapes are part of the run. Sixteen bytes at a time with SSE2 (every
// amd64 processor has it), the last few one by one.
TEXT ·stringRun(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	MOVQ SI, DI
	LEAQ (SI)(BX*1), R8 // the end of b
	MOVOU quotes<>(SB), X1
	MOVOU backslashes<>(SB), X2
	MOVOU controls<>(SB), X3
	CMPQ BX, $16
	JB   tail

loop:
	MOVOU    (SI), X4
	MOVOU    X4, X5
	PCMPEQB  X1, X5 // X5 = b == '"'
	MOVOU    X4, X6
	PCMPEQB  X2, X6 // X6 = b == '\\'
	POR      X6, X5
	MOVOU    X4, X7
	PMINUB   X3, X7 // X7 = min(b, 0x1f)
	PCMPEQB  X4, X7 // X7 = b <= 0x1f
	POR      X7, X5
	PMOVMSKB X5, AX
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
	CMPB    AL, $0x22
	JEQ     done
	CMPB    AL, $0x5c
	JEQ     escape
	CMPB    AL, $0x20
	JB      done
	INCQ    SI
	CMPQ    SI, R8
	JB      tailloop
	JMP     done

found:
	BSFL    AX, CX
	ADDQ    CX, SI
	MOVBLZX (SI), AX
	CMPB    AL, $0x5c
	JNE     done

escape:
	// A backslash at SI: a two-byte escape is skipped.
	LEAQ    1(SI), DX
	CMPQ    DX, R8
	JAE     done
	MOVBLZX (DX), AX
	CMPB    AL, $0x22
	JEQ     skip
	CMPB    AL, $0x5c
	JEQ     skip
	CMPB    AL, $0x2f
	JEQ     skip
	CMPB    AL, $0x62
	JEQ     skip
	CMPB    AL, $0x66
	JEQ     skip
	CMPB    AL, $0x6e
	JEQ     skip
	CMPB    AL, $0x72
	JEQ     skip
	CMPB    AL, $0x74
	JEQ     skip
	JMP     done

skip:
	ADDQ $2, SI
	MOVQ R8, BX
	SUBQ SI, BX
	CMPQ BX, $16
	JAE  loop
	JMP  tail

done:
	CMPQ SI, R8
	JBE  ret
	MOVQ R8, SI

ret:
	SUBQ DI, SI
	MOVQ SI, ret+24(FP)
	RET

DATA quotes<>+0(SB)/8, $0x2222222222222222
DATA quotes<>+8(SB)/8, $0x2222222222222222
GLOBL quotes<>(SB), RODATA|NOPTR, $16

DATA backslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $16

DATA controls<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA controls<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL controls<>(SB), RODATA|NOPTR, $16

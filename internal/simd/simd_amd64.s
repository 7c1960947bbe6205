//go:build !purego

#include "textflag.h"

// func StringRun(b []byte) int
//
// The length of the run of JSON string text at the start of b: the index
// of the first '"', control character (< 0x20) or backslash that does not
// start a two-byte escape (\" \\ \/ \b \f \n \r \t), or len(b). Two-byte
// escapes are part of the run. Sixteen bytes at a time with SSE2 (every
// amd64 processor has it), the last few one by one.
TEXT ·StringRun(SB), NOSPLIT, $0-32
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

// func UnescapeRun(dst []byte, src string) (n, m int)
//
// Copies src to dst, decoding two-byte escapes (\" \\ \/ \b \f \n \r \t),
// up to the end of src or a backslash that starts anything else (\u, or
// an error): n bytes written, m read. Sixteen bytes at a time with SSE2,
// which may write up to 16 bytes past n: dst must have room for
// len(src)+16 bytes.
TEXT ·UnescapeRun(SB), NOSPLIT, $0-56
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), BX
	MOVQ DI, DX
	MOVQ SI, R9
	LEAQ (SI)(BX*1), R8 // the end of src
	MOVOU backslashes<>(SB), X1
	LEAQ unescapes<>(SB), R10

uloop:
	MOVQ R8, BX
	SUBQ SI, BX
	CMPQ BX, $16
	JB   utail
	MOVOU    (SI), X0
	MOVOU    X0, (DI)
	MOVOU    X0, X2
	PCMPEQB  X1, X2
	PMOVMSKB X2, AX
	TESTL    AX, AX
	JNZ      uesc16
	ADDQ     $16, SI
	ADDQ     $16, DI
	JMP      uloop

uesc16:
	BSFL AX, CX
	ADDQ CX, SI
	ADDQ CX, DI

uescape:
	// A backslash at SI: a two-byte escape is decoded.
	LEAQ    1(SI), BX
	CMPQ    BX, R8
	JAE     udone
	MOVBLZX (BX), AX
	MOVBLZX (R10)(AX*1), AX
	TESTB   AL, AL
	JZ      udone
	MOVB    AL, (DI)
	ADDQ    $2, SI
	INCQ    DI
	JMP     uloop

utail:
	CMPQ    SI, R8
	JAE     udone
	MOVBLZX (SI), AX
	CMPB    AL, $0x5c
	JEQ     uescape
	MOVB    AL, (DI)
	INCQ    SI
	INCQ    DI
	JMP     utail

udone:
	SUBQ DX, DI
	MOVQ DI, n+40(FP)
	SUBQ R9, SI
	MOVQ SI, m+48(FP)
	RET

// func ASCIIRun(s string) int
//
// The length of the run of printable ASCII, tabs and newlines at the
// start of s: sixteen bytes at a time with SSE2, the last few one by one.
TEXT ·ASCIIRun(SB), NOSPLIT, $0-24
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	MOVQ SI, DI
	LEAQ (SI)(BX*1), R8 // the end of s
	MOVOU controls<>(SB), X8
	MOVOU dels<>(SB), X9
	MOVOU tabs<>(SB), X10
	MOVOU newlines<>(SB), X11
	CMPQ BX, $16
	JB   atail

aloop:
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
	JNZ      afound
	ADDQ     $16, SI
	SUBQ     $16, BX
	CMPQ     BX, $16
	JAE      aloop

atail:
	CMPQ SI, R8
	JAE  adone

atailloop:
	MOVBLZX (SI), AX
	CMPB    AL, $0x7f
	JAE     adone
	CMPB    AL, $0x20
	JAE     anext
	CMPB    AL, $0x09
	JEQ     anext
	CMPB    AL, $0x0a
	JNE     adone

anext:
	INCQ SI
	CMPQ SI, R8
	JB   atailloop

adone:
	SUBQ DI, SI
	MOVQ SI, ret+16(FP)
	RET

afound:
	BSFL AX, AX
	SUBQ DI, SI
	ADDQ AX, SI
	MOVQ SI, ret+16(FP)
	RET

DATA unescapes<>+0(SB)/8, $0x0000000000000000
DATA unescapes<>+8(SB)/8, $0x0000000000000000
DATA unescapes<>+16(SB)/8, $0x0000000000000000
DATA unescapes<>+24(SB)/8, $0x0000000000000000
DATA unescapes<>+32(SB)/8, $0x0000000000220000
DATA unescapes<>+40(SB)/8, $0x2f00000000000000
DATA unescapes<>+48(SB)/8, $0x0000000000000000
DATA unescapes<>+56(SB)/8, $0x0000000000000000
DATA unescapes<>+64(SB)/8, $0x0000000000000000
DATA unescapes<>+72(SB)/8, $0x0000000000000000
DATA unescapes<>+80(SB)/8, $0x0000000000000000
DATA unescapes<>+88(SB)/8, $0x0000005c00000000
DATA unescapes<>+96(SB)/8, $0x000c000000080000
DATA unescapes<>+104(SB)/8, $0x000a000000000000
DATA unescapes<>+112(SB)/8, $0x00000009000d0000
DATA unescapes<>+120(SB)/8, $0x0000000000000000
DATA unescapes<>+128(SB)/8, $0x0000000000000000
DATA unescapes<>+136(SB)/8, $0x0000000000000000
DATA unescapes<>+144(SB)/8, $0x0000000000000000
DATA unescapes<>+152(SB)/8, $0x0000000000000000
DATA unescapes<>+160(SB)/8, $0x0000000000000000
DATA unescapes<>+168(SB)/8, $0x0000000000000000
DATA unescapes<>+176(SB)/8, $0x0000000000000000
DATA unescapes<>+184(SB)/8, $0x0000000000000000
DATA unescapes<>+192(SB)/8, $0x0000000000000000
DATA unescapes<>+200(SB)/8, $0x0000000000000000
DATA unescapes<>+208(SB)/8, $0x0000000000000000
DATA unescapes<>+216(SB)/8, $0x0000000000000000
DATA unescapes<>+224(SB)/8, $0x0000000000000000
DATA unescapes<>+232(SB)/8, $0x0000000000000000
DATA unescapes<>+240(SB)/8, $0x0000000000000000
DATA unescapes<>+248(SB)/8, $0x0000000000000000
GLOBL unescapes<>(SB), RODATA|NOPTR, $256

DATA quotes<>+0(SB)/8, $0x2222222222222222
DATA quotes<>+8(SB)/8, $0x2222222222222222
GLOBL quotes<>(SB), RODATA|NOPTR, $16

DATA backslashes<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA backslashes<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL backslashes<>(SB), RODATA|NOPTR, $16

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

//go:build !race

package testmain

import "os"

const race = false

func exitNow(code int) { os.Exit(code) }

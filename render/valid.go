package render

import "github.com/tidwall/gjson"

func validJSON(s string) bool { return gjson.Valid(s) }

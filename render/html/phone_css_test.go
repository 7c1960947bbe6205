package html

import (
	"regexp"
	"strings"
	"testing"
)

// On a phone (the page's narrow layout) an item's "#" anchor stays hidden
// as it is on a desktop until the item is hovered or linked to: it is not
// drawn after every item. Code keeps tabs four columns wide.
func TestPageCSSPhoneAnchorsAndTabs(t *testing.T) {
	t.Parallel()
	narrow := regexp.MustCompile(`(?s)@media \(max-width: [^)]*\) \{(.*?)\n\}`).FindStringSubmatch(pageCSS)
	if narrow == nil {
		t.Fatal("no narrow layout in page.css")
	}
	if strings.Contains(narrow[1], ".anchor") {
		t.Errorf("the narrow layout shows the anchors:%s", narrow[1])
	}
	if !regexp.MustCompile(`(?m)^pre \{[^}]*tab-size: 4;`).MatchString(pageCSS) {
		t.Error("pre does not set tab-size: 4")
	}
}

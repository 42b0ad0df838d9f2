package manifests

// RootState says whether o's node is parsed lazily (ReadRendered) and
// whether that parse is done: for the tests of package manifests_test.
func RootState(o *Object) (lazy, parsed bool) {
	if o.root == nil {
		return false, false
	}
	return o.root.lazy, o.root.parsed
}

/// The known word a mistyped one was most likely meant to be: for "did you mean …?" in errors
/// about config keys and commands.
package enum NearestWord {
    /// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
    /// swaps of neighbours each count one), if it is close enough to be a typo: at most one edit
    /// for words of up to four letters, two up to eight, three beyond. Ties go to the first in
    /// sorted order, so the answer never depends on the order of a set.
    package static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased().unicodeScalars)
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (word: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// The optimal-string-alignment distance: Levenshtein's, with a swap of two neighbours one edit.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}

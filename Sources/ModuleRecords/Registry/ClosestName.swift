/// The linked name a user most likely meant by a name that is not linked:
/// the same name in another case, else the nearest by edit distance when it
/// is close enough to be a typo; `nil` when none is.
func closestName(to name: String, among names: [String]) -> String? {
    let lowered = name.lowercased()
    if let sameButCase = names.first(where: { $0.lowercased() == lowered }) { return sameButCase }
    let typo = max(1, lowered.count / 3)
    let distances = names.map { (name: $0, distance: editDistance(lowered, $0.lowercased())) }
    return distances.filter { $0.distance <= typo }.min { $0.distance < $1.distance }?.name
}

/// Levenshtein distance over characters: insertions, deletions and
/// substitutions, one row at a time.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}

/// " Did you mean 'X'?" for a suggestion, or nothing.
func didYouMean(_ name: String, among names: [String]) -> String {
    closestName(to: name, among: names).map { " Did you mean '\($0)'?" } ?? ""
}

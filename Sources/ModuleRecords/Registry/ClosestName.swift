/// The linked name a user most likely meant by a name that is not linked:
/// the same name in another case, else the nearest by edit distance when it
/// is close enough to be a typo; `nil` when none is. A name every character
/// of which would change ('X' for 'Y') is no typo.
func closestName(to name: String, among names: [String]) -> String? {
    let lowered = name.lowercased()
    if let sameButCase = names.first(where: { $0.lowercased() == lowered }) { return sameButCase }
    let typo = min(max(1, lowered.count / 3), lowered.count - 1)
    let distances = names.map { (name: $0, distance: editDistance(lowered, $0.lowercased())) }
    return distances.filter { $0.distance <= typo }.min { $0.distance < $1.distance }?.name
}

/// Edit distance over characters: insertions, deletions, substitutions
/// and swaps of two neighbours (optimal string alignment), one row at a
/// time. A swap counts once because it is the commonest typo: "Stroe" is
/// one edit from "Store", not two.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var beforePrevious: [Int] = []
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
        var current = [i + 1]
        for (j, y) in b.enumerated() {
            var distance = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            if i > 0, j > 0, x == b[j - 1], a[i - 1] == y { distance = min(distance, beforePrevious[j - 1] + 1) }
            current.append(distance)
        }
        (beforePrevious, previous) = (previous, current)
    }
    return previous[b.count]
}

/// " Did you mean 'X'?" for a suggestion, or nothing.
package func didYouMean(_ name: String, among names: [String]) -> String {
    closestName(to: name, among: names).map { " Did you mean '\($0)'?" } ?? ""
}

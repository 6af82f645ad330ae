/// A binary min-heap of positions: the free module that comes first in
/// declared order, in O(log n).
struct IndexHeap {
    private var elements: [Int] = []

    init(_ initial: [Int]) {
        for element in initial { insert(element) }
    }

    mutating func insert(_ element: Int) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let minimum = elements[0]
        elements[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < elements.count && elements[left] < elements[smallest] { smallest = left }
            if right < elements.count && elements[right] < elements[smallest] { smallest = right }
            guard smallest != parent else { return minimum }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

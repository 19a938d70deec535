import CSDBusShim
import CSystemd
import Glibc

/// Builds sd-bus vtables, and keeps them and the C strings they point into alive for as long as
/// the object that owns the builder (sd-bus keeps raw pointers for the life of the bus).
package final class BusVTableBuilder {
    private var strings: [UnsafeMutablePointer<CChar>] = []

    package init() {}
    private var tables: [UnsafeMutablePointer<sd_bus_vtable>] = []

    deinit {
        strings.forEach { free($0) }
        tables.forEach { $0.deallocate() }
    }

    package func method(_ name: String, _ signature: String = "", result: String = "", names: [String] = [],
                handler: sd_bus_message_handler_t) -> sd_bus_vtable {
        cp_vtable_method(text(name), text(signature), text(result), argumentNames(names), handler, 0)
    }

    /// Argument names as sd-bus keeps them: each ending in NUL, the list in one more.
    package func argumentNames(_ names: [String]) -> UnsafePointer<CChar> {
        let bytes: [CChar] = names.reduce(into: []) { $0 += $1.utf8CString } + [0]
        let copy = malloc(bytes.count)!.bindMemory(to: CChar.self, capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// A C string that lives as long as the builder.
    package func text(_ text: String) -> UnsafePointer<CChar> {
        let copy = strdup(text)!
        strings.append(copy)
        return UnsafePointer(copy)
    }

    /// A vtable of `entries` between its start and end markers.
    package func table(_ entries: [sd_bus_vtable]) -> UnsafeMutablePointer<sd_bus_vtable> {
        let all = [cp_vtable_start(0)] + entries + [cp_vtable_end()]
        let table = UnsafeMutablePointer<sd_bus_vtable>.allocate(capacity: all.count)
        table.initialize(from: all, count: all.count)
        tables.append(table)
        return table
    }
}

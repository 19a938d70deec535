import CSQLite

/// Text split into words exactly as an FTS5 index splits it: a search turns what the user typed
/// into the index's own words (folded, without punctuation), so no FTS5 syntax gets through.
extension SQLiteConnection {
    /// The words of `text` as the FTS5 tokenizer `name` (e.g. `unicode61`) makes them for a
    /// query. Synonyms a tokenizer adds at the same place are left out.
    package func tokens(of text: String, tokenizer name: String) throws(SQLiteError) -> [String] {
        if let tokenizer = tokenizers[name] { return try tokenizer.tokens(of: text) }
        let tokenizer = try FTS5Tokenizer(name, api: try fts5API())
        tokenizers[name] = tokenizer
        return try tokenizer.tokens(of: text)
    }

    /// This connection's FTS5 interface, asked for as SQLite's manual says (`SELECT fts5(?1)`
    /// with a pointer bound to it).
    private func fts5API() throws(SQLiteError) -> UnsafeMutablePointer<fts5_api> {
        let handle = try open()
        var api: UnsafeMutablePointer<fts5_api>?
        let statement = try SQLiteStatement("SELECT fts5(?1)", connection: handle)
        let code = withUnsafeMutablePointer(to: &api) { pointer in
            // The type name is compared when the statement runs: a literal, alive until then.
            let type: StaticString = "fts5_api_ptr"
            let bound = UnsafeRawPointer(type.utf8Start).withMemoryRebound(to: CChar.self, capacity: type.utf8CodeUnitCount + 1) {
                sqlite3_bind_pointer(statement.handle, 1, pointer, $0, nil)
            }
            return bound == SQLITE_OK ? sqlite3_step(statement.handle) : bound
        }
        guard code == SQLITE_ROW || code == SQLITE_DONE, let api else {
            throw SQLiteError(code: code == SQLITE_ROW ? SQLITE_ERROR : code, message: "this SQLite has no FTS5")
        }
        return api
    }
}

/// One instance of an FTS5 tokenizer, owned by its connection, which deletes it when it closes.
final class FTS5Tokenizer {
    private var methods = fts5_tokenizer()
    private var instance: OpaquePointer?

    init(_ name: String, api: UnsafeMutablePointer<fts5_api>) throws(SQLiteError) {
        var context: UnsafeMutableRawPointer?
        guard let find = api.pointee.xFindTokenizer, find(api, name, &context, &methods) == SQLITE_OK,
              let create = methods.xCreate else {
            throw SQLiteError(code: SQLITE_ERROR, message: "no FTS5 tokenizer \(name)")
        }
        let code = create(context, nil, 0, &instance)
        guard code == SQLITE_OK, instance != nil else { throw SQLiteError(code: code, message: "cannot make an FTS5 \(name) tokenizer") }
    }

    func tokens(of text: String) throws(SQLiteError) -> [String] {
        guard let instance, let tokenize = methods.xTokenize else { return [] }
        var tokens: [String] = []
        var text = text
        let code = text.withUTF8 { bytes in
            withUnsafeMutablePointer(to: &tokens) { collected in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    tokenize(instance, collected, FTS5_TOKENIZE_QUERY, characters.baseAddress, Int32(characters.count)) { context, flags, token, count, _, _ in
                        guard flags & FTS5_TOKEN_COLOCATED == 0, let context, let token else { return SQLITE_OK }
                        let bytes = UnsafeRawBufferPointer(start: token, count: Int(count))
                        context.assumingMemoryBound(to: [String].self).pointee.append(String(decoding: bytes, as: UTF8.self))
                        return SQLITE_OK
                    }
                }
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, message: "the FTS5 tokenizer failed") }
        return tokens
    }

    /// Frees the instance; called by the connection as it closes.
    func delete() {
        if let instance { methods.xDelete?(instance) }
        instance = nil
    }
}

import Config
import Loader

/// Every kind of source cloudplayerd knows, by its `type` in the config file. A new kind is a
/// folder beside these (a `SourceType`, its storage if it can be listed, its input, its answer
/// parsers in `Answers/`) and a line here.
package enum SourceTypes {
    package static let all: [any SourceType.Type] = [
        LocalSource.self,
        HTTPSource.self,
        WebDAVSource.self,
        FeedSource.self,
        S3Source.self,
        SubsonicSource.self,
        YandexDiskSource.self,
        DropboxSource.self,
        OneDriveSource.self,
        GoogleDriveSource.self,
        BoxSource.self,
        RadioSource.self,
    ]

    /// Each `[[source]]` read by the type it names (`types`: those it may name); a cloud account's
    /// logins kept in `tokenStore`.
    package static func configure(_ sections: [(type: (value: String, line: Int)?, section: ConfigSection)],
                                  types: [any SourceType.Type] = all, tokenStore: TokenStore = .standard) throws(ConfigError) -> [any SourceType] {
        let names = types.map { $0.typeName }.joined(separator: ", ")
        var sources: [any SourceType] = []
        for (typeName, section) in sections {
            guard let typeName else { throw section.error("type", "missing (\(names))") }
            guard let type = types.first(where: { $0.typeName == typeName.value }) else {
                throw section.error("type", line: typeName.line, "'\(typeName.value)' is not a source type (\(names))")
            }
            var source = try type.configure(section)
            if var cloud = source as? any CloudAccountSource {
                cloud.account.tokenStore = tokenStore
                source = cloud as? any SourceType ?? source
            }
            sources.append(source)
        }
        return sources
    }
}

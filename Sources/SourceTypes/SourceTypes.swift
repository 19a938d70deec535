import Loader

/// Every kind of source cloudplayerd knows, by its `type` in the config file. A new kind is a
/// folder beside these (a `SourceType`, its storage if it can be listed, its input) and a line here.
package enum SourceTypes {
    package static let all: [any SourceType.Type] = [
        LocalSource.self,
        HTTPSource.self,
        WebDAVSource.self,
        FeedSource.self,
        S3Source.self,
        SubsonicSource.self,
        YandexDiskSource.self,
    ]
}

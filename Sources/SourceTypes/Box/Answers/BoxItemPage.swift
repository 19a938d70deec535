/// One page of a folder's items with marker paging: `entries`, and `next_marker` while there are
/// more (null or absent on the last page). https://developer.box.com/reference/get-folders-id-items,
/// https://developer.box.com/guides/api-calls/pagination/marker-based
package struct BoxItemPage: Decodable, Sendable, Equatable {
    package var entries: [BoxItem]
    package var nextMarker: String?
}

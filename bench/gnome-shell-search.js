// bench/gnome-shell-search's extension (GNOME Shell 43, legacy imports): drives the shell's own
// RemoteSearchProvider2 for cloudplayerd's provider and prints what it got, lines starting PROBE.
/* exported init enable disable */
const { Gio, GLib } = imports.gi;
const RemoteSearch = imports.ui.remoteSearch;

function init() {}

function enable() {
    const settings = new Gio.Settings({ schema_id: 'org.gnome.desktop.search-providers' });
    const providers = RemoteSearch.loadRemoteSearchProviders(settings);
    print(`PROBE providers: ${providers.map(p => p.id).join(', ')}`);
    const provider = providers.find(p => p.appInfo.get_id() === 'cloudplayerd.desktop');
    if (!provider) {
        print('PROBE no cloudplayerd provider');
        return;
    }
    (async () => {
        // The provider's proxy initialises asynchronously after it is made.
        await new Promise(resolve => GLib.timeout_add(GLib.PRIORITY_DEFAULT, 5000, () => { resolve(); return GLib.SOURCE_REMOVE; }));
        print('PROBE searching');
        const ids = await provider.getInitialResultSet(['artist', '01'], new Gio.Cancellable());
        print(`PROBE initial: ${JSON.stringify(ids)}`);
        const sub = await provider.getSubsearchResultSet(ids, ['artist', '01', 'album', '2'], new Gio.Cancellable());
        print(`PROBE subsearch: ${JSON.stringify(sub)}`);
        const metas = await provider.getResultMetas(sub, new Gio.Cancellable());
        for (const m of metas) {
            const icon = m.createIcon(64);
            print(`PROBE meta: ${m.id} | ${m.name} | ${m.description} | ${icon && icon.gicon ? icon.gicon.to_string() : 'no icon'}`);
        }
        provider.activateResult(sub[0], ['artist', '01', 'album', '2']);
        print('PROBE activated');
        provider.launchSearch(['artist']);
        print('PROBE launched');
    })().catch(e => print(`PROBE error: ${e}`));
}

function disable() {}

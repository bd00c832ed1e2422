"""The online server (extra ``[server]``): ``canasta serve``, the browser client and the protocol of
docs/protocol.md. The engine, the bots and the database are behind it; nothing here decides a rule."""

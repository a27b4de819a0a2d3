"""The HTTP and WebSocket API: dependencies and one router module per resource."""

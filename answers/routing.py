from django.urls import path, re_path

from answers.consumers import ChatConsumer, UnknownPathConsumer

websocket_urlpatterns = [
    path("ws/chat/", ChatConsumer.as_asgi()),
    re_path(r"", UnknownPathConsumer.as_asgi()),  # last: any other path is refused cleanly, not a "No route" 500
]

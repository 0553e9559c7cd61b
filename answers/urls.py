from django.urls import path

from answers import views

urlpatterns = [
    path("", views.chat, name="home"),
    path("api/answer/stream", views.api_answer_stream, name="api-answer-stream"),
    path("api/answer", views.api_answer, name="api-answer"),
]

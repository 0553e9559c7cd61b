"""The chat page, conversations, permalinks and the answer API; the API answers with the site's configured generator."""
from django.urls import path

from answers import views
from answers.services import choose_generator

SITE_GENERATOR = {"make_generator": choose_generator}

urlpatterns = [
    path("", views.chat, name="home"),
    path("conversations/<uuid:key>/turns", views.conversation_fragments, name="conversation-turns"),
    path("answers/<uuid:answer_key>/", views.answer_permalink, name="answer-permalink"),
    path("answers/<uuid:answer_key>/turns", views.answer_permalink_fragments, name="answer-permalink-turns"),
    path("api/answer/stream", views.api_answer_stream, SITE_GENERATOR, name="api-answer-stream"),
    path("api/answer", views.api_answer, SITE_GENERATOR, name="api-answer"),
    path("api/answers/<uuid:answer_key>/rating", views.api_answer_rating, name="api-answer-rating"),
]

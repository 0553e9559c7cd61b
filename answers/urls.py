from django.urls import path

from answers import views

urlpatterns = [
    path("api/answer", views.api_answer, name="api-answer"),
]

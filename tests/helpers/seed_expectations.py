"""What the seed quiz says, read by hand from shared/seed/ray-train-tune-quiz.ko.txt.

Checked against the scraped page, not against qti-builder's output: the letter after "정답:" for
each multiple-choice question, and the opening words of its explanation and model answers.
"""

QUIZ_TITLE = "Ray Train과 Ray Tune 퀴즈"
CHOICE_IDS = ["train-purpose", "train-v2", "scaling-config", "checkpointing",
              "tune-purpose", "tune-with-train", "autoscaler-demand", "co-scheduling"]
ESSAY_IDS = ["trainer-and-scaling-config", "tune-train-autoscaling"]
ANSWERS = ["B", "B", "A", "B", "A", "B", "A", "B"]
# Start of each question's stem, of its correct option, and of its explanation ("설명").
STEMS = [
    "Ray Train이 분산 학습 스크립트에 대해 주로 해결하는 문제는",
    "Ray Train V2에 대한 설명으로 가장 적절한 것은",
    "Ray Train의 ScalingConfig가 하는 역할은",
    "워커 장애 이후 학습을 복구할 수 있게 하는 것 외에",
    "Ray Tune은 무엇을 하나요?",
    "그 자체로 분산 학습이 필요한 모델에 대해",
    "EKS에서 KubeRay 기반 오토스케일러가",
    "EKS에서 Ray Train 실행을 구성하는 분산 워커들의 코스케줄링",
]
CORRECT_OPTIONS = [
    "워커 프로세스 실행, 워커 간 통신 그룹 구성, 체크포인트 조율이라는 보일러플레이트를 대신 처리해준다",
    "기존의 ray.train.torch.TorchTrainer import 경로 뒤에서 다시 작성된 구현으로",
    "워커를 몇 개 실행할지, 각 워커에 어떤 리소스(예: GPU)가 필요한지를 지정한다",
    "학습된 모델을 워크플로우의 다음 단계",
    "클러스터 전역에서 많은 학습 trial을 병렬로 실행하고",
    "Tune이 탐색 대상인 trainable로 Ray Train의 Trainer를 그대로 감싸서",
    "Ray Train과 Ray Tune이 다른 모든 Ray 워크로드와 동일하게",
    "오토스케일러가 합리적인 시간 안에 요청된 모든 워커를 프로비저닝하지 못하면",
]
EXPLANATIONS = [
    "Ray Train은 Ray의 task와 actor 원시 개념 위에 만들어졌으며",
    "Ray Train의 API는 시간이 지나면서 계속 발전해왔지만",
    "ScalingConfig는 Trainer에게 워커를 몇 개 실행할지와",
    "보고된 체크포인트는 학습을 이어갈 수 있을 만큼의 상태",
    "Ray Tune은 Ray 위에 만들어진 하이퍼파라미터 튜닝 라이브러리입니다.",
    "흔히 쓰이는 패턴은 Tune에 Ray Train의 Trainer를 trainable로 넘기는 것입니다.",
    "두 라이브러리 모두 학습이나 튜닝만을 위한 별도의 경로 없이",
    "하나의 Ray Train 실행을 구성하는 워커들은 보통 코스케줄링",
]
ESSAY_STEMS = [
    "Ray Train의 Trainer와 ScalingConfig가 각각 무엇을 하는지",
    "Ray Tune과 Ray Train을 결합하는 것이 왜 유용한지",
]
# Each model answer has two paragraphs; (start of first, start of second).
MODEL_ANSWERS = [
    ("Trainer(예: TorchTrainer)는 사용자가 작성한 학습 함수를 감쌉니다.", "ScalingConfig는 Trainer에게 워커를 몇 개 실행할지"),
    ("일부 모델은 학습 비용이 매우 커서", "모든 trial의 모든 워커가 여전히 Ray의 일반적인"),
]
#: The identifiers whose code formatting the scrape lost; the source restores them as code spans.
CODE_SPANS = {"ray.train.torch.TorchTrainer", "ScalingConfig", "Trainer", "TorchTrainer"}

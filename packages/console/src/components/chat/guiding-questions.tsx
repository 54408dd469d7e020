import { BulbOutlined } from "@ant-design/icons";
import { Button, Flex } from "antd";

/** Props of {@link GuidingQuestions}. */
export interface GuidingQuestionsProps {
  questions: string[];
  onPick: (question: string) => void;
  disabled?: boolean;
}

/** The opening introduction's [bracketed] questions as clickable chips. */
export function GuidingQuestions({ questions, onPick, disabled = false }: GuidingQuestionsProps) {
  if (questions.length === 0) return null;
  return (
    <Flex gap={8} wrap className="pl-guiding" data-testid="guiding-questions">
      {questions.map((question, index) => (
        <Button
          key={question}
          shape="round"
          size="small"
          icon={<BulbOutlined />}
          className="pl-guiding__chip"
          disabled={disabled}
          onClick={() => onPick(question)}
          data-testid={`guiding-question-${index}`}
        >
          {question}
        </Button>
      ))}
    </Flex>
  );
}

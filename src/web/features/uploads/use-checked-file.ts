import { useCallback, useState } from "react";
import { toast } from "sonner";
import { checkFileChoice, type UploadPurpose, uploadErrorTitle } from "../../../contracts/uploads";

/**
 * A file field that refuses, the moment a file is chosen, what the server would refuse (type, size),
 * with the spec's toast and an inline message: no byte is sent for a refused file.
 */
export function useCheckedFile(purpose: UploadPurpose) {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = useCallback(
    (chosen: File) => {
      const refused = checkFileChoice(purpose, chosen);
      if (refused) {
        toast.error(uploadErrorTitle(refused.code), { description: refused.message });
        setProblem(refused.message);
        return;
      }
      setProblem(null);
      setFile(chosen);
    },
    [purpose],
  );
  const clear = useCallback(() => {
    setProblem(null);
    setFile(null);
  }, []);

  return { file, problem, choose, clear };
}

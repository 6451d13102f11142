print("workoutbench")
